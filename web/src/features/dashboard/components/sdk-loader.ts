/** The embedding SDK arrives in its own chunk, loaded with the first dashboard (never on the sign-in page). */
export const loadEmbeddingSdk = () => import('amazon-quicksight-embedding-sdk');

// Entry point of this function; the implementation replaces this file.
export const handler = async (): Promise<never> => {
  throw new Error('This function is not built yet');
};

/** The local date of an epoch-milliseconds time, as the portal shows dates (e.g. an account's creation date). */
export const localDate = (epochMs: number): string => new Date(epochMs).toLocaleDateString();

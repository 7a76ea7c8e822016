/** Daily company-access check (EventBridge schedule): being written; replaced by the real check. */
export const handler = async (): Promise<never> => {
  throw new Error('The company-access check is not built yet');
};

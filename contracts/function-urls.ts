/**
 * The one HTTP method each function URL serves (besides CORS preflights). The CDK app's CORS
 * settings and each handler's 405 answer both read it here, so the two cannot drift.
 */
export const FUNCTION_URL_METHODS = {
  embed: 'GET',
  quicksightAdmin: 'POST',
  userAdmin: 'POST',
  mfa: 'POST',
  contact: 'POST',
} as const;

export type FunctionUrlName = keyof typeof FUNCTION_URL_METHODS;

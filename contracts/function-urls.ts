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

/**
 * The header naming the dashboard of an embed request (contracts/embed.ts re-exports it). It
 * stands here, apart from the embed contract's zod schemas, because every function's CORS
 * middleware reads it when the function starts.
 */
export const EMBED_DASHBOARD_HEADER = 'x-dashboard-id';

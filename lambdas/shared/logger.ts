import { Logger } from '@aws-lambda-powertools/logger';

/**
 * One structured JSON logger per function. Request bodies, tokens, passwords, codes and
 * TOTP secrets are never passed to it: the request log records who did which action, with
 * what status, and nothing of the payload.
 */
export const createLogger = (serviceName: string): Logger => new Logger({ serviceName });

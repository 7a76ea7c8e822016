import { Logger } from '@aws-lambda-powertools/logger';
import { withSourceMappedStack } from './source-mapped-stack.ts';

/**
 * Powertools' Logger as every function uses it (loaded by lambdas/shared/logger.ts on the first
 * request). An error in a line's attributes is formatted by Powertools as always (name,
 * location, message, stack, cause and its own fields), from its stack in the source's terms.
 */
export const powertoolsLogger = (serviceName: string): Logger =>
  new Logger({
    serviceName,
    jsonReplacerFn: (_key, value) => (value instanceof Error ? withSourceMappedStack(value) : value),
  });

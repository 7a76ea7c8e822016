import { CognitoIdentityProviderClient } from '@aws-sdk/client-cognito-identity-provider';
import { ENV } from '#contracts/env.ts';
import { clientConfig } from './config.ts';

export const cognito = new CognitoIdentityProviderClient(clientConfig(ENV.cognitoEndpoint));

/**
 * Counts every call Cognito still answers with TooManyRequestsException after the SDK's
 * retries (the callers turn it into a 5xx or a 429, which Lambda's Errors metric does not
 * count): the operations pack alarms on CognitoThrottles. The metric writer is loaded only
 * on that path, and a failure to write it never replaces Cognito's error.
 */
cognito.middlewareStack.add(
  (next, context) => async (args) => {
    try {
      return await next(args);
    } catch (error) {
      if (error instanceof Error && error.name === 'TooManyRequestsException') {
        await import('../cognito-throttles.ts')
          .then((metric) => metric.countCognitoThrottle(context.commandName?.replace(/Command$/, '') ?? 'unknown'))
          .catch(() => undefined);
      }
      throw error;
    }
  },
  { step: 'initialize', name: 'countCognitoThrottles' },
);

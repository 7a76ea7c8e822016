import { CognitoIdentityProviderClient } from '@aws-sdk/client-cognito-identity-provider';
import { inject } from 'vitest';
import { LOCAL_CREDENTIALS } from '#clients/local-stack.ts';
import type { PoolContext } from '#clients/cognito.ts';
import type { StackInfo } from '#clients/local-stack.ts';
import './provided.ts';

export type { StackInfo } from '#clients/local-stack.ts';

/** The running local stack's stack.json, as the global setup provided it. */
export function useStack(): StackInfo {
  return inject('stack');
}

/**
 * An administrative Cognito client of the running stack and the pool context the seed's
 * account helpers take (`clients/cognito.ts`); the caller destroys the client.
 */
export function stackPool(stack: StackInfo): PoolContext & { readonly client: CognitoIdentityProviderClient } {
  const client = new CognitoIdentityProviderClient({
    endpoint: stack.cognito.endpoint,
    region: stack.region,
    credentials: LOCAL_CREDENTIALS,
  });
  return {
    client,
    endpoint: stack.cognito.endpoint,
    userPoolId: stack.cognito.userPoolId,
    clientId: stack.cognito.clientId,
    readTotpSecret: async () => undefined,
  };
}

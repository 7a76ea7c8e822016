import { CognitoUserPool } from 'amazon-cognito-identity-js';
import { authenticate, createConfirmedAccount, enrolAuthenticator, memoryStorage, userFor } from '#clients/cognito.ts';
import type { stackPool } from './stack.ts';

/**
 * A confirmed account in `groups`, signed in once as a person's first sign-in goes: the password,
 * then an authenticator enrolled on the MFA_SETUP challenge. Resolves with the authenticator's
 * secret and the access token of that sign-in (one that may call Cognito for 5 minutes).
 */
export async function createEnrolledAccount(
  pool: ReturnType<typeof stackPool>,
  account: { readonly email: string; readonly password: string; readonly groups: readonly string[] },
  deviceName: string,
): Promise<{ secret: string; accessToken: string }> {
  await createConfirmedAccount(pool.client, pool.userPoolId, {
    email: account.email,
    password: account.password,
    groups: [...account.groups],
  });
  const userPool = new CognitoUserPool({
    UserPoolId: pool.userPoolId,
    ClientId: pool.clientId,
    endpoint: pool.endpoint,
    Storage: memoryStorage(),
  });
  const user = userFor(userPool, account.email);
  const first = await authenticate(user, account.email, account.password);
  if (first.step !== 'MFA_SETUP')
    throw new Error(`${account.email}: expected the MFA set-up challenge, got ${first.step}`);
  return enrolAuthenticator(pool, user, deviceName);
}

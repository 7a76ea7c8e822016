/**
 * Signing a demo account in to a local stack from a bench module, outside the test runner:
 * SRP with the unmodified amazon-cognito-identity-js, then the authenticator code, as the SPA
 * does (clients/cognito.ts). The stack's seed signed the demo accounts in
 * before it reported ready, and the identity provider, as Cognito, takes a code once per
 * 30-second step, so the code comes from a step after the one the stack was ready in: no
 * refusal is expected, and one fails the sign-in.
 */
import { CognitoUserPool } from 'amazon-cognito-identity-js';
import type { DemoAccount, StackInfo } from '#clients/local-stack.ts';
import { answerTotp, authenticate, memoryStorage, userFor } from '#clients/cognito.ts';
import { noteSeedSignIns, unusedTotpCode } from '#test/e2e/support/unused-totp-codes.ts';

export interface BenchSession {
  readonly accessToken: string;
  readonly idToken: string;
}

/**
 * An access token for `account`. `readyAt` is when spawnStack resolved (the seed's codes were
 * used before then).
 */
export async function signInToStack(stack: StackInfo, account: DemoAccount, readyAt: number): Promise<BenchSession> {
  const pool = new CognitoUserPool({
    UserPoolId: stack.cognito.userPoolId,
    ClientId: stack.cognito.clientId,
    endpoint: stack.cognito.endpoint,
    Storage: memoryStorage(),
  });
  const user = userFor(pool, account.email);
  const challenge = await authenticate(user, account.email, account.password);
  if (challenge.step !== 'SOFTWARE_TOKEN_MFA')
    throw new Error(`${account.email}: expected the authenticator challenge, got ${challenge.step}`);
  await noteSeedSignIns(stack, readyAt);
  const outcome = await answerTotp(user, await unusedTotpCode(account.totpSecret, account.email));
  if (outcome.step !== 'DONE')
    throw new Error(`${account.email}: expected a session after the authenticator code, got ${outcome.step}`);
  return {
    accessToken: outcome.session.getAccessToken().getJwtToken(),
    idToken: outcome.session.getIdToken().getJwtToken(),
  };
}

/**
 * Signing a demo account in to a local stack from a bench module, outside the test runner:
 * SRP with the unmodified amazon-cognito-identity-js, then the authenticator code, as the SPA
 * does (test/local/support/cognito-client.ts). The stack's seed signed the demo accounts in
 * before it reported ready, and the identity provider, as Cognito, takes a code once per
 * 30-second step, so the code comes from a step after the one the stack was ready in: no
 * refusal is expected, and one fails the sign-in.
 */
import { CognitoUserPool } from 'amazon-cognito-identity-js';
import { setTimeout as sleep } from 'node:timers/promises';
import type { DemoAccount, StackInfo } from '../local/stack-info.ts';
import { currentTotpCode } from '../local/totp-code.ts';
import { answerTotp, authenticate, memoryStorage, userFor } from '../test/local/support/cognito-client.ts';

const TOTP_STEP_MS = 30_000;
const stepOf = (at: number) => Math.floor(at / TOTP_STEP_MS);

/** The last step whose code this process used per account, the stack's ready step included. */
const usedSteps = new Map<string, number>();

export interface BenchSession {
  readonly accessToken: string;
  readonly idToken: string;
}

/**
 * The authenticator code of `account` from a 30-second step after the stack's ready one
 * (`readyAt`, when spawnStack resolved) and after any this process used for it; waits for it.
 * For a sign-in typed into the SPA as well as for signInToStack.
 */
export async function freshTotpCode(account: DemoAccount, readyAt: number): Promise<string> {
  const lastUsed = Math.max(usedSteps.get(account.email) ?? -1, stepOf(readyAt));
  while (stepOf(Date.now()) <= lastUsed) await sleep((lastUsed + 1) * TOTP_STEP_MS - Date.now() + 50);
  const step = stepOf(Date.now());
  usedSteps.set(account.email, step);
  return currentTotpCode(account.totpSecret, step * TOTP_STEP_MS);
}

/**
 * An access token for `account`. `readyAt` is when spawnStack resolved (the seed's codes were
 * used before then).
 */
export async function signInToStack(stack: StackInfo, account: DemoAccount, readyAt: number): Promise<BenchSession> {
  const pool = new CognitoUserPool({ UserPoolId: stack.cognito.userPoolId, ClientId: stack.cognito.clientId, endpoint: stack.cognito.endpoint, Storage: memoryStorage() });
  const user = userFor(pool, account.email);
  const challenge = await authenticate(user, account.email, account.password);
  if (challenge.step !== 'SOFTWARE_TOKEN_MFA') throw new Error(`${account.email}: expected the authenticator challenge, got ${challenge.step}`);
  const outcome = await answerTotp(user, await freshTotpCode(account, readyAt));
  if (outcome.step !== 'DONE') throw new Error(`${account.email}: expected a session after the authenticator code, got ${outcome.step}`);
  return { accessToken: outcome.session.getAccessToken().getJwtToken(), idToken: outcome.session.getIdToken().getJwtToken() };
}

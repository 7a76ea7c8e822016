import {
  AssociateSoftwareTokenCommand,
  ChangePasswordCommand,
  GetUserCommand,
  GlobalSignOutCommand,
  InitiateAuthCommand,
  SetUserMFAPreferenceCommand,
  VerifySoftwareTokenCommand,
} from '@aws-sdk/client-cognito-identity-provider';
import type { PreTokenGenerationV2TriggerEvent } from 'aws-lambda';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { handler as preTokenGeneration } from '#lambdas/pre-token-generation/handler.ts';
import { answerTotp, authenticate, userFor } from './support/cognito-client.ts';
import { createEnrolledUser, startHarness, type CognitoHarness } from './support/cognito-harness.ts';

/**
 * Cognito authorizes its self-service operations (GetUser, AssociateSoftwareToken,
 * VerifySoftwareToken, SetUserMFAPreference, ChangePassword, the device operations, GlobalSignOut...) by the
 * access token alone, and only when the token carries `aws.cognito.signin.user.admin`:
 * https://docs.aws.amazon.com/cognito/latest/developerguide/amazon-cognito-user-pools-using-the-access-token.html
 * The pre token generation trigger (version 2 event) may suppress that scope:
 * https://docs.aws.amazon.com/cognito/latest/developerguide/user-pool-lambda-pre-token-generation.html
 * The portal's trigger suppresses it in tokens from a refresh, and access tokens last 5 minutes,
 * so a stolen or refreshed token cannot replace the authenticator through Cognito directly.
 */

const MINUTE = 60_000;
let harness: CognitoHarness;
const events: PreTokenGenerationV2TriggerEvent[] = [];
let failTrigger = false;

beforeAll(async () => {
  harness = await startHarness({
    accessTokenMinutes: 5,
    preTokenGeneration: async (event) => {
      events.push(structuredClone(event));
      if (failTrigger) throw new Error('trigger unavailable');
      return preTokenGeneration(event);
    },
  });
});
afterAll(() => harness.close());

const claims = (token: string) =>
  JSON.parse(Buffer.from(token.split('.')[1] ?? '', 'base64url').toString()) as Record<string, unknown>;
const refresh = async (refreshToken: string) =>
  (
    await harness.admin.send(
      new InitiateAuthCommand({
        AuthFlow: 'REFRESH_TOKEN_AUTH',
        ClientId: harness.emulator.clientId,
        AuthParameters: { REFRESH_TOKEN: refreshToken },
      }),
    )
  ).AuthenticationResult!.AccessToken!;
const missingScope = { name: 'NotAuthorizedException', message: 'Access Token does not have required scopes' };

async function enrolled(email: string) {
  const created = await createEnrolledUser(harness, email, 'Scope#Pass12');
  return {
    ...created,
    accessToken: created.session.getAccessToken().getJwtToken(),
    refreshToken: created.session.getRefreshToken().getToken(),
  };
}

describe('the admin scope and the pre token generation trigger', () => {
  it('sends the version 2 event and keeps the scope in tokens from a sign-in', async () => {
    events.length = 0;
    const { accessToken, username } = await enrolled('signin-scope@example.com');
    expect(claims(accessToken).scope).toBe('aws.cognito.signin.user.admin');
    expect(claims(accessToken).exp as number).toBe((claims(accessToken).iat as number) + 300);
    const event = events.at(-1)!;
    expect(event).toMatchObject({
      version: '2',
      triggerSource: 'TokenGeneration_Authentication',
      userName: username,
      userPoolId: harness.emulator.userPoolId,
      callerContext: { clientId: harness.emulator.clientId },
      request: { scopes: ['aws.cognito.signin.user.admin'], userAttributes: { email: 'signin-scope@example.com' } },
    });
    expect((await harness.admin.send(new GetUserCommand({ AccessToken: accessToken }))).Username).toBe(username);
  });

  it('refuses every token-authorized operation to a refreshed token, which lacks the scope', async () => {
    events.length = 0;
    const { accessToken, refreshToken } = await enrolled('refresh-scope@example.com');
    const refreshed = await refresh(refreshToken);
    expect(events.at(-1)?.triggerSource).toBe('TokenGeneration_RefreshTokens');
    expect(claims(refreshed).scope).toBeUndefined();
    expect(claims(refreshed).auth_time).toBe(claims(accessToken).auth_time);
    for (const command of [
      new GetUserCommand({ AccessToken: refreshed }),
      new AssociateSoftwareTokenCommand({ AccessToken: refreshed }),
      new VerifySoftwareTokenCommand({ AccessToken: refreshed, UserCode: '123456' }),
      new SetUserMFAPreferenceCommand({
        AccessToken: refreshed,
        SoftwareTokenMfaSettings: { Enabled: false, PreferredMfa: false },
      }),
      new ChangePasswordCommand({
        AccessToken: refreshed,
        PreviousPassword: 'Scope#Pass12',
        ProposedPassword: 'Other#Pass34',
      }),
      new GlobalSignOutCommand({ AccessToken: refreshed }),
    ]) {
      await expect(harness.admin.send(command as never), command.constructor.name).rejects.toMatchObject(missingScope);
    }
  });

  it('closes the step-up bypass: 7 minutes after the sign-in no token of it can replace the authenticator', async () => {
    const { accessToken, refreshToken, secret } = await enrolled('bypass@example.com');
    harness.advance(7 * MINUTE);
    // The token of the sign-in has expired (5 minutes); a refreshed one has no scope.
    await expect(
      harness.admin.send(new AssociateSoftwareTokenCommand({ AccessToken: accessToken })),
    ).rejects.toMatchObject({
      name: 'NotAuthorizedException',
      message: 'Access Token has expired',
    });
    const refreshed = await refresh(refreshToken);
    await expect(
      harness.admin.send(new AssociateSoftwareTokenCommand({ AccessToken: refreshed })),
    ).rejects.toMatchObject(missingScope);
    // The owner's authenticator still signs in.
    harness.advance(MINUTE);
    const user = userFor(harness.pool, 'bypass@example.com');
    expect((await authenticate(user, 'bypass@example.com', 'Scope#Pass12')).step).toBe('SOFTWARE_TOKEN_MFA');
    expect((await answerTotp(user, harness.totp(secret))).step).toBe('DONE');
  });

  it('fails the sign-in when the trigger fails, as Cognito does', async () => {
    const { secret } = await enrolled('trigger-down@example.com');
    failTrigger = true;
    try {
      harness.advance(MINUTE);
      const user = userFor(harness.pool, 'trigger-down@example.com');
      expect((await authenticate(user, 'trigger-down@example.com', 'Scope#Pass12')).step).toBe('SOFTWARE_TOKEN_MFA');
      await expect(answerTotp(user, harness.totp(secret))).rejects.toMatchObject({
        code: 'UserLambdaValidationException',
        message: 'PreTokenGeneration failed with error trigger unavailable.',
      });
    } finally {
      failTrigger = false;
    }
  });
});

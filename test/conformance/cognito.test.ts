import {
  AdminDeleteSoftwareTokenCommand,
  AdminGetUserCommand,
  AdminSetUserMFAPreferenceCommand,
  AssociateSoftwareTokenCommand,
  GetTokensFromRefreshTokenCommand,
  GetUserCommand,
  InitiateAuthCommand,
  RevokeTokenCommand,
  SetUserMFAPreferenceCommand,
  SignUpCommand,
  VerifySoftwareTokenCommand,
} from '@aws-sdk/client-cognito-identity-provider';
import type { CognitoUserSession } from 'amazon-cognito-identity-js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  answerTotp,
  associateSoftwareToken,
  authenticate,
  userFor,
  verifySoftwareToken,
} from '../local/support/cognito-client.ts';
import { startCognitoTarget, type CognitoTarget } from './support/cognito-target.ts';

/**
 * Cognito behaviour the portal relies on, each test named after the API reference page it
 * follows. Runs against the local emulator and, unchanged, against a scratch user pool in AWS.
 * Sign-ins use SRP through amazon-cognito-identity-js, as the portal's sign-in page does.
 */

const PASSWORD = 'Conform#ance1';
/** Tests that sign in with one authenticator several times wait for new 30-second steps on AWS. */
const SLOW = 180_000;

let target: CognitoTarget;
beforeAll(async () => {
  target = await startCognitoTarget();
  // The first start may synthesize the app for the functions' role policies (support/front-door.ts).
}, 300_000);
afterAll(() => target?.close());

/** Signs in with SRP and answers the authenticator's code. */
async function signIn(email: string, secret: string): Promise<CognitoUserSession> {
  const user = userFor(target.pool(), email);
  expect(await authenticate(user, email, PASSWORD)).toEqual({ step: 'SOFTWARE_TOKEN_MFA' });
  const outcome = await answerTotp(user, await target.totp(secret));
  if (outcome.step !== 'DONE') throw new Error(`expected tokens, got ${outcome.step}`);
  return outcome.session;
}

/** A new account through its first sign-in: MFA_SETUP, associate, verify. */
async function enrol(label: string) {
  const email = target.email(label);
  const username = await target.createUser(email, PASSWORD);
  const user = userFor(target.pool(), email);
  expect(await authenticate(user, email, PASSWORD)).toEqual({ step: 'MFA_SETUP' });
  const secret = await associateSoftwareToken(user);
  const session = await verifySoftwareToken(user, await target.totp(secret));
  return { email, username, secret, accessToken: session.getAccessToken().getJwtToken(), session };
}

/** What the portal does right after setup: TOTP enabled and preferred. */
const preferTotp = (accessToken: string) =>
  target.admin.send(
    new SetUserMFAPreferenceCommand({
      AccessToken: accessToken,
      SoftwareTokenMfaSettings: { Enabled: true, PreferredMfa: true },
    }),
  );

const mfaOf = async (accessToken: string) => {
  const answer = await target.admin.send(new GetUserCommand({ AccessToken: accessToken }));
  return { list: answer.UserMFASettingList ?? [], preferred: answer.PreferredMfaSetting };
};

describe('MFA in a pool that requires it (TOTP only)', () => {
  // https://docs.aws.amazon.com/cognito-user-identity-pools/latest/APIReference/API_AdminSetUserMFAPreference.html
  // and API_SoftwareTokenMfaSettingsType.html: "You can't turn off TOTP
  // MFA for any of your users when MFA is required in your user pool".
  it(
    'AdminSetUserMFAPreference: disabling TOTP keeps a verified software token (sign-in still SOFTWARE_TOKEN_MFA)',
    async () => {
      const { email, secret, accessToken } = await enrol('admin-disable');
      await preferTotp(accessToken);
      await target.admin.send(
        new AdminSetUserMFAPreferenceCommand({
          UserPoolId: target.userPoolId,
          Username: email,
          SoftwareTokenMfaSettings: { Enabled: false, PreferredMfa: false },
        }),
      );
      expect((await signIn(email, secret)).isValid()).toBe(true);
    },
    SLOW,
  );

  // https://docs.aws.amazon.com/cognito-user-identity-pools/latest/APIReference/API_SetUserMFAPreference.html:
  // the operation "doesn't reset an existing TOTP MFA for a user".
  it(
    'SetUserMFAPreference: disabling TOTP keeps a verified software token (sign-in still SOFTWARE_TOKEN_MFA)',
    async () => {
      const { email, secret, accessToken } = await enrol('self-disable');
      await preferTotp(accessToken);
      await target.admin.send(
        new SetUserMFAPreferenceCommand({
          AccessToken: accessToken,
          SoftwareTokenMfaSettings: { Enabled: false, PreferredMfa: false },
        }),
      );
      expect((await signIn(email, secret)).isValid()).toBe(true);
    },
    SLOW,
  );

  // https://docs.aws.amazon.com/cognito-user-identity-pools/latest/APIReference/API_AdminDeleteSoftwareToken.html:
  // "the user can no longer sign in with TOTP MFA, and can
  // register a new TOTP factor with AssociateSoftwareToken".
  it('AdminDeleteSoftwareToken: deletes the TOTP factor, so the next sign-in is MFA_SETUP', async () => {
    const { email, accessToken } = await enrol('admin-delete');
    await preferTotp(accessToken);
    await target.admin.send(new AdminDeleteSoftwareTokenCommand({ UserPoolId: target.userPoolId, Username: email }));
    const user = userFor(target.pool(), email);
    expect(await authenticate(user, email, PASSWORD)).toEqual({ step: 'MFA_SETUP' });
    const secret = await associateSoftwareToken(user);
    expect((await verifySoftwareToken(user, await target.totp(secret))).isValid()).toBe(true);
  });

  // https://docs.aws.amazon.com/cognito-user-identity-pools/latest/APIReference/API_AdminDeleteSoftwareToken.html, Errors: UserNotFoundException.
  it('AdminDeleteSoftwareToken: an unknown user is UserNotFoundException', async () => {
    await expect(
      target.admin.send(
        new AdminDeleteSoftwareTokenCommand({ UserPoolId: target.userPoolId, Username: target.email('nobody') }),
      ),
    ).rejects.toMatchObject({ name: 'UserNotFoundException' });
  });

  // https://docs.aws.amazon.com/cognito-user-identity-pools/latest/APIReference/API_AssociateSoftwareToken.html
  // and API_VerifySoftwareToken.html: associating starts a
  // setup; verifying registers the new authenticator.
  it(
    'AssociateSoftwareToken: on an enrolled user the old token keeps working until VerifySoftwareToken verifies the new one',
    async () => {
      const { email, secret: oldSecret, accessToken } = await enrol('replace');
      await preferTotp(accessToken);
      const { SecretCode: newSecret } = await target.admin.send(
        new AssociateSoftwareTokenCommand({ AccessToken: accessToken }),
      );
      expect(newSecret).toBeTruthy();
      expect((await signIn(email, oldSecret)).isValid()).toBe(true);

      const verified = await target.admin.send(
        new VerifySoftwareTokenCommand({ AccessToken: accessToken, UserCode: await target.totp(newSecret!) }),
      );
      expect(verified.Status).toBe('SUCCESS');
      const user = userFor(target.pool(), email);
      expect(await authenticate(user, email, PASSWORD)).toEqual({ step: 'SOFTWARE_TOKEN_MFA' });
      await expect(answerTotp(user, await target.totp(oldSecret))).rejects.toMatchObject({
        code: 'CodeMismatchException',
      });
      expect((await signIn(email, newSecret!)).isValid()).toBe(true);
    },
    2 * SLOW,
  );

  // The MFA setting list after first-time setup through MFA_SETUP. Chosen behaviour: empty
  // (no UserMFASettingList, no PreferredMfaSetting) until SetUserMFAPreference turns TOTP on.
  // Sources: the TOTP developer guide makes enabling a step after verification ("Next, you can
  // enable TOTP MFA for your user or set TOTP as the preferred MFA method for your user",
  // https://docs.aws.amazon.com/cognito/latest/developerguide/user-pool-settings-mfa-totp.html);
  // https://docs.aws.amazon.com/cognito-user-identity-pools/latest/APIReference/API_VerifySoftwareToken.html only marks the token "verified"; Amplify's docs advise setting
  // the preference before reading it (aws-amplify/docs#5635).
  it('VerifySoftwareToken: first-time setup through MFA_SETUP leaves UserMFASettingList and PreferredMfaSetting empty until SetUserMFAPreference', async () => {
    const { email, accessToken } = await enrol('first-setup');
    expect(await mfaOf(accessToken)).toEqual({ list: [], preferred: undefined });
    await preferTotp(accessToken);
    expect(await mfaOf(accessToken)).toEqual({ list: ['SOFTWARE_TOKEN_MFA'], preferred: 'SOFTWARE_TOKEN_MFA' });
    const asAdmin = await target.admin.send(
      new AdminGetUserCommand({ UserPoolId: target.userPoolId, Username: email }),
    );
    expect(asAdmin.UserMFASettingList).toEqual(['SOFTWARE_TOKEN_MFA']);
    expect(asAdmin.PreferredMfaSetting).toBe('SOFTWARE_TOKEN_MFA');
  });
});

describe('the app client (contracts/user-pool-client.ts)', () => {
  // https://docs.aws.amazon.com/cognito-user-identity-pools/latest/APIReference/API_InitiateAuth.html: a flow the client's ExplicitAuthFlows do not allow is refused.
  it('InitiateAuth: USER_PASSWORD_AUTH is refused with InvalidParameterException, the client allows SRP only', async () => {
    const email = target.email('password-flow');
    await target.createUser(email, PASSWORD);
    await expect(
      target.admin.send(
        new InitiateAuthCommand({
          AuthFlow: 'USER_PASSWORD_AUTH',
          ClientId: target.clientId,
          AuthParameters: { USERNAME: email, PASSWORD },
        }),
      ),
    ).rejects.toMatchObject({
      name: 'InvalidParameterException',
      message: 'USER_PASSWORD_AUTH flow not enabled for this client',
    });
  });

  // https://docs.aws.amazon.com/cognito-user-identity-pools/latest/APIReference/API_GetTokensFromRefreshToken.html:
  // new ID and access tokens; a new refresh token only
  // with refresh-token rotation, which the app client does not use.
  it('GetTokensFromRefreshToken: issues access and ID tokens and no refresh token without rotation', async () => {
    const { session } = await enrol('refresh');
    const answer = await target.admin.send(
      new GetTokensFromRefreshTokenCommand({
        RefreshToken: session.getRefreshToken().getToken(),
        ClientId: target.clientId,
      }),
    );
    // The app client's access tokens last 5 minutes (contracts/user-pool-client.ts).
    expect(answer.AuthenticationResult).toMatchObject({ TokenType: 'Bearer', ExpiresIn: 300 });
    expect(answer.AuthenticationResult?.AccessToken).toBeTruthy();
    expect(answer.AuthenticationResult?.IdToken).toBeTruthy();
    expect(answer.AuthenticationResult?.RefreshToken).toBeUndefined();
    const caller = await target.admin.send(
      new GetUserCommand({ AccessToken: answer.AuthenticationResult!.AccessToken! }),
    );
    expect(caller.Username).toBe(session.getAccessToken().payload.username);
  });

  // https://docs.aws.amazon.com/cognito-user-identity-pools/latest/APIReference/API_GetTokensFromRefreshToken.html, Errors: NotAuthorizedException.
  it('GetTokensFromRefreshToken: an unknown or revoked refresh token is NotAuthorizedException', async () => {
    const { session } = await enrol('refresh-revoked');
    const refreshToken = session.getRefreshToken().getToken();
    const refresh = (token: string) =>
      target.admin.send(new GetTokensFromRefreshTokenCommand({ RefreshToken: token, ClientId: target.clientId }));
    await expect(refresh('not-a-refresh-token')).rejects.toMatchObject({
      name: 'NotAuthorizedException',
      message: 'Invalid Refresh Token',
    });
    await target.admin.send(new RevokeTokenCommand({ Token: refreshToken, ClientId: target.clientId }));
    await expect(refresh(refreshToken)).rejects.toMatchObject({
      name: 'NotAuthorizedException',
      message: 'Refresh Token has been revoked',
    });
  });
});

describe('a pool where only administrators create users', () => {
  let closed: CognitoTarget;
  beforeAll(async () => {
    closed = await startCognitoTarget({ allowSelfSignUp: false });
  });
  afterAll(() => closed?.close());

  // https://docs.aws.amazon.com/cognito-user-identity-pools/latest/APIReference/API_SignUp.html, Errors: NotAuthorizedException (AllowAdminCreateUserOnly).
  it('SignUp: refused with NotAuthorizedException when self sign-up is off', async () => {
    await expect(
      closed.admin.send(
        new SignUpCommand({ ClientId: closed.clientId, Username: closed.email('visitor'), Password: PASSWORD }),
      ),
    ).rejects.toMatchObject({ name: 'NotAuthorizedException', message: 'SignUp is not permitted for this user pool' });
  });
});

import { generateKeyPairSync, sign } from 'node:crypto';
import {
  AdminDeleteUserCommand,
  AdminDisableUserCommand,
  AdminEnableUserCommand,
  AdminUserGlobalSignOutCommand,
  AssociateSoftwareTokenCommand,
  ChangePasswordCommand,
  GetTokensFromRefreshTokenCommand,
  GetUserCommand,
  GlobalSignOutCommand,
  InitiateAuthCommand,
  SetUserMFAPreferenceCommand,
  UpdateUserAttributesCommand,
  VerifySoftwareTokenCommand,
} from '@aws-sdk/client-cognito-identity-provider';
import { CognitoJwtVerifier } from 'aws-jwt-verify';
import type { Jwks } from 'aws-jwt-verify/jwk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  globalSignOut,
  refreshSession,
  signOutRevoking,
  userFor,
  authenticate,
  answerTotp,
} from './support/cognito-client.ts';
import { createEnrolledUser, startHarness, type CognitoHarness } from './support/cognito-harness.ts';

/** The handlers' verifier: configuration only, the pool's JWKS handed over with cacheJwks. */
function verifierFor(tokenUse: 'access' | 'id') {
  const { userPoolId, clientId, jwks } = harness.emulator;
  const verifier = CognitoJwtVerifier.create({ userPoolId, tokenUse, clientId });
  verifier.cacheJwks(jwks as Jwks);
  return verifier;
}

let harness: CognitoHarness;
let accessVerifier: ReturnType<typeof verifierFor>;
let idVerifier: ReturnType<typeof verifierFor>;

beforeAll(async () => {
  harness = await startHarness();
  accessVerifier = verifierFor('access');
  idVerifier = verifierFor('id');
});
afterAll(() => harness.close());

const getUser = (token: string) => harness.admin.send(new GetUserCommand({ AccessToken: token }));
const refresh = (refreshToken: string) =>
  harness.admin.send(
    new InitiateAuthCommand({
      AuthFlow: 'REFRESH_TOKEN_AUTH',
      ClientId: harness.emulator.clientId,
      AuthParameters: { REFRESH_TOKEN: refreshToken },
    }),
  );
const revoked = { name: 'NotAuthorizedException', message: 'Access Token has been revoked' };
const refreshRevoked = { name: 'NotAuthorizedException', message: 'Refresh Token has been revoked' };

const encode = (value: object) => Buffer.from(JSON.stringify(value)).toString('base64url');
const parts = (token: string) => {
  const [header = '', payload = ''] = token.split('.');
  return {
    header: JSON.parse(Buffer.from(header, 'base64url').toString()) as Record<string, unknown>,
    payload: JSON.parse(Buffer.from(payload, 'base64url').toString()) as Record<string, unknown>,
  };
};

async function signedIn(email: string, groups: readonly string[] = []) {
  const created = await createEnrolledUser(harness, email, 'Token#Pass12', groups);
  return {
    ...created,
    accessToken: created.session.getAccessToken().getJwtToken(),
    idToken: created.session.getIdToken().getJwtToken(),
    refreshToken: created.session.getRefreshToken().getToken(),
  };
}

describe('tokens', () => {
  it('issues RS256 tokens with Cognito claims that aws-jwt-verify accepts', async () => {
    const { username, accessToken, idToken } = await signedIn('claims@example.com', ['Users', 'Admins']);
    const access = await accessVerifier.verify(accessToken);
    const id = await idVerifier.verify(idToken);
    const issuer = harness.emulator.issuer;
    expect(issuer).toBe(`https://cognito-idp.us-east-2.amazonaws.com/${harness.emulator.userPoolId}`);
    expect(Object.keys(access).sort()).toEqual(
      [
        'auth_time',
        'client_id',
        'cognito:groups',
        'event_id',
        'exp',
        'iat',
        'iss',
        'jti',
        'origin_jti',
        'scope',
        'sub',
        'token_use',
        'username',
      ].sort(),
    );
    expect(access).toMatchObject({
      sub: username,
      username,
      iss: issuer,
      client_id: harness.emulator.clientId,
      token_use: 'access',
      scope: 'aws.cognito.signin.user.admin',
      'cognito:groups': ['Admins', 'Users'],
    });
    expect(access.exp - access.iat).toBe(300);
    expect(id).toMatchObject({
      sub: username,
      email: 'claims@example.com',
      email_verified: true,
      'cognito:username': username,
      'cognito:groups': ['Admins', 'Users'],
      aud: harness.emulator.clientId,
      token_use: 'id',
      origin_jti: access.origin_jti,
      event_id: access.event_id,
      auth_time: access.auth_time,
      iss: issuer,
    });
    expect(parts(accessToken).header).toEqual({
      kid: (harness.emulator.jwks.keys[0] as { kid: string }).kid,
      alg: 'RS256',
    });
  });

  it('refuses tokens signed with another key, unsigned, tampered, of the wrong use or expired', async () => {
    const { accessToken, idToken, refreshToken } = await signedIn('forged@example.com');
    const { header, payload } = parts(accessToken);
    const other = generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey;
    const input = `${encode(header)}.${encode(payload)}`;
    const otherKey = `${input}.${sign('sha256', Buffer.from(input), other).toString('base64url')}`;
    const unsigned = `${encode({ ...header, alg: 'none' })}.${encode(payload)}.`;
    const tampered = `${encode(header)}.${encode({ ...payload, username: 'someone-else' })}.${accessToken.split('.')[2]}`;
    for (const token of [otherKey, unsigned, tampered, idToken]) {
      await expect(accessVerifier.verify(token)).rejects.toThrow();
      await expect(getUser(token)).rejects.toMatchObject({
        name: 'NotAuthorizedException',
        message: 'Invalid Access Token',
      });
    }
    await expect(idVerifier.verify(accessToken)).rejects.toThrow(/token use/i);

    harness.advance(-2 * 60 * 60_000);
    const stale = (await refresh(refreshToken)).AuthenticationResult!.AccessToken!;
    harness.advance(2 * 60 * 60_000);
    await expect(accessVerifier.verify(stale)).rejects.toThrow(/expired/i);
    await expect(getUser(stale)).rejects.toMatchObject({
      name: 'NotAuthorizedException',
      message: 'Access Token has expired',
    });
  });

  it('refreshes access and ID tokens of the same sign-in with the library', async () => {
    const { session } = await signedIn('refresh@example.com');
    const user = userFor(harness.pool, 'refresh@example.com');
    const refreshed = await refreshSession(user, session);
    const before = session.getAccessToken().decodePayload();
    const after = refreshed.getAccessToken().decodePayload();
    expect(after.origin_jti).toBe(before.origin_jti);
    expect(after.jti).not.toBe(before.jti);
    expect(refreshed.getRefreshToken().getToken()).toBe(session.getRefreshToken().getToken());
    await accessVerifier.verify(refreshed.getAccessToken().getJwtToken());
    const raw = await refresh(session.getRefreshToken().getToken());
    expect(raw.AuthenticationResult).toMatchObject({ TokenType: 'Bearer', ExpiresIn: 300 });
    expect(raw.AuthenticationResult?.RefreshToken).toBeUndefined();
    await expect(refresh('not-a-refresh-token')).rejects.toMatchObject({
      name: 'NotAuthorizedException',
      message: 'Invalid Refresh Token',
    });
  });

  it('GetTokensFromRefreshToken refuses an expired refresh token and one issued by another client', async () => {
    const { refreshToken: foreign } = await signedIn('foreign.refresh@example.com');
    const other = await startHarness();
    try {
      const fromRefresh = (token: string) =>
        other.admin.send(
          new GetTokensFromRefreshTokenCommand({ RefreshToken: token, ClientId: other.emulator.clientId }),
        );
      await expect(fromRefresh(foreign)).rejects.toMatchObject({
        name: 'NotAuthorizedException',
        message: 'Invalid Refresh Token',
      });
      const { session } = await createEnrolledUser(other, 'expiring.refresh@example.com', 'Token#Pass12');
      const own = session.getRefreshToken().getToken();
      expect((await fromRefresh(own)).AuthenticationResult?.AccessToken).toBeTruthy();
      other.advance(30 * 24 * 60 * 60_000);
      await expect(fromRefresh(own)).rejects.toMatchObject({
        name: 'NotAuthorizedException',
        message: 'Refresh Token has expired',
      });
    } finally {
      await other.close();
    }
  });

  it('answers GetUser with the attributes and MFA settings of the caller', async () => {
    const { username, accessToken } = await signedIn('getuser@example.com');
    const answer = await getUser(accessToken);
    expect(answer.Username).toBe(username);
    expect(Object.fromEntries(answer.UserAttributes!.map(({ Name, Value }) => [Name, Value]))).toEqual({
      sub: username,
      email: 'getuser@example.com',
      email_verified: 'true',
    });
    expect(answer.UserMFASettingList).toEqual(['SOFTWARE_TOKEN_MFA']);
    expect(answer.PreferredMfaSetting).toBe('SOFTWARE_TOKEN_MFA');
  });
});

describe('revocation', () => {
  it('global sign-out from the library kills access tokens for every call and the refresh token', async () => {
    const { session, accessToken, refreshToken } = await signedIn('global@example.com');
    const user = userFor(harness.pool, 'global@example.com');
    user.setSignInUserSession(session);
    await globalSignOut(user);
    const calls = [
      () => getUser(accessToken),
      () =>
        harness.admin.send(
          new UpdateUserAttributesCommand({ AccessToken: accessToken, UserAttributes: [{ Name: 'name', Value: 'X' }] }),
        ),
      () =>
        harness.admin.send(
          new ChangePasswordCommand({
            AccessToken: accessToken,
            PreviousPassword: 'Token#Pass12',
            ProposedPassword: 'Token#Pass13',
          }),
        ),
      () => harness.admin.send(new AssociateSoftwareTokenCommand({ AccessToken: accessToken })),
      () => harness.admin.send(new VerifySoftwareTokenCommand({ AccessToken: accessToken, UserCode: '123456' })),
      () =>
        harness.admin.send(
          new SetUserMFAPreferenceCommand({ AccessToken: accessToken, SoftwareTokenMfaSettings: { Enabled: false } }),
        ),
      () => harness.admin.send(new GlobalSignOutCommand({ AccessToken: accessToken })),
    ];
    for (const call of calls) await expect(call()).rejects.toMatchObject(revoked);
    await expect(refresh(refreshToken)).rejects.toMatchObject(refreshRevoked);
  });

  it('sign-out with token revocation (RevokeToken) ends that sign-in only', async () => {
    const first = await signedIn('revoke@example.com');
    const second = userFor(harness.pool, 'revoke@example.com');
    await authenticate(second, 'revoke@example.com', 'Token#Pass12');
    const other = await answerTotp(second, harness.totp(first.secret));
    if (other.step !== 'DONE') throw new Error('expected a session');
    const user = userFor(harness.pool, 'revoke@example.com');
    user.setSignInUserSession(first.session);
    await signOutRevoking(user);
    await expect(getUser(first.accessToken)).rejects.toMatchObject(revoked);
    await expect(refresh(first.refreshToken)).rejects.toMatchObject(refreshRevoked);
    expect((await getUser(other.session.getAccessToken().getJwtToken())).Username).toBe(first.username);
  });

  it('AdminUserGlobalSignOut revokes every sign-in of the user', async () => {
    const { accessToken, refreshToken } = await signedIn('admin.signout@example.com');
    await harness.admin.send(
      new AdminUserGlobalSignOutCommand({
        UserPoolId: harness.emulator.userPoolId,
        Username: 'admin.signout@example.com',
      }),
    );
    await expect(getUser(accessToken)).rejects.toMatchObject(revoked);
    await expect(refresh(refreshToken)).rejects.toMatchObject(refreshRevoked);
  });

  it('disabling a user revokes its tokens for good, even after it is enabled again', async () => {
    const { accessToken, refreshToken } = await signedIn('disable.me@example.com');
    const target = { UserPoolId: harness.emulator.userPoolId, Username: 'disable.me@example.com' };
    await harness.admin.send(new AdminDisableUserCommand(target));
    await expect(getUser(accessToken)).rejects.toMatchObject(revoked);
    await expect(refresh(refreshToken)).rejects.toMatchObject({
      name: 'NotAuthorizedException',
      message: 'User is disabled.',
    });
    await harness.admin.send(new AdminEnableUserCommand(target));
    await expect(getUser(accessToken)).rejects.toMatchObject(revoked);
    await expect(refresh(refreshToken)).rejects.toMatchObject(refreshRevoked);
  });

  it('deleting a user revokes its tokens', async () => {
    const { accessToken, refreshToken } = await signedIn('delete.me@example.com');
    await harness.admin.send(
      new AdminDeleteUserCommand({ UserPoolId: harness.emulator.userPoolId, Username: 'delete.me@example.com' }),
    );
    await expect(getUser(accessToken)).rejects.toMatchObject(revoked);
    await expect(refresh(refreshToken)).rejects.toMatchObject(refreshRevoked);
  });
});

import {
  AdminGetUserCommand,
  AdminSetUserMFAPreferenceCommand,
  CompleteWebAuthnRegistrationCommand,
  DeleteWebAuthnCredentialCommand,
  GetUserCommand,
  ListWebAuthnCredentialsCommand,
  ResourceNotFoundException,
  SetUserMFAPreferenceCommand,
  StartWebAuthnRegistrationCommand,
  WebAuthnChallengeNotFoundException,
  WebAuthnRelyingPartyMismatchException,
} from '@aws-sdk/client-cognito-identity-provider';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { REAUTHENTICATION_REQUIRED } from '#contracts/mfa.ts';
import {
  PASSKEY_ADDED_MESSAGE,
  PASSKEY_ERRORS,
  PASSKEY_REMOVED_MESSAGE,
  passkeyListResponseSchema,
} from '#contracts/passkeys.ts';
import { RESET_MFA_MESSAGE, userFactorsSchema } from '#contracts/user-admin.ts';
import {
  ADMIN,
  type Handler,
  type Harness,
  invoke,
  loadHandler,
  startHarness,
  type TestAccount,
  USER,
} from './support/harness.ts';

let h: Harness;
let mfa: Handler;
let userAdmin: Handler;

beforeAll(async () => {
  h = await startHarness({ MFA_CONFIGURATION: 'ON', REMEMBER_DEVICES: 'false' });
  [mfa, userAdmin] = await Promise.all([loadHandler('mfa'), loadHandler('user-admin')]);
});
afterAll(() => h.close());
beforeEach(() => h.reset());

const credential = {
  id: 'Y3JlZGVudGlhbC0x',
  rawId: 'Y3JlZGVudGlhbC0x',
  type: 'public-key',
  response: { clientDataJSON: 'eyJ0eXBlIjoid2ViYXV0aG4uY3JlYXRlIn0', attestationObject: 'o2NmbXRkbm9uZQ' },
  clientExtensionResults: {},
  authenticatorAttachment: 'platform',
};

const held = (id: string, createdAt: string, name = `Passkey ${id}`) => ({
  CredentialId: id,
  FriendlyCredentialName: name,
  RelyingPartyId: 'portal.example.com',
  AuthenticatorTransports: ['internal'],
  AuthenticatorAttachment: 'platform',
  CreatedAt: new Date(createdAt),
});

/** GetUser (and AdminGetUser, for refreshed tokens) as Cognito answers: USER's passkeys count as MFA (or not). */
const passkeyMfa = (enabled: boolean) => {
  const profileOf = (who: TestAccount) => ({
    Username: who.username,
    UserAttributes: [
      { Name: 'sub', Value: who.username },
      { Name: 'email', Value: who.email },
      { Name: 'email_verified', Value: 'true' },
    ],
    UserMFASettingList: enabled && who === USER ? ['SOFTWARE_TOKEN_MFA', 'WEB_AUTHN'] : ['SOFTWARE_TOKEN_MFA'],
    PreferredMfaSetting: 'SOFTWARE_TOKEN_MFA',
    Enabled: true,
    UserStatus: 'CONFIRMED' as const,
  });
  h.cognito.on(GetUserCommand).callsFake((input: { AccessToken?: string }) => {
    const claims = JSON.parse(Buffer.from(String(input.AccessToken).split('.')[1]!, 'base64url').toString());
    return profileOf(claims.username === ADMIN.username ? ADMIN : USER);
  });
  h.cognito.on(AdminGetUserCommand, { Username: USER.username }).resolves(profileOf(USER));
};

const callMfa = async (body: unknown, options: { signedInAgo?: number; refreshed?: boolean } = {}) => {
  const token = await h.token(USER, options);
  return { token, res: await invoke(mfa, { token, body }) };
};

describe('passkeys of the MFA function', () => {
  it('adds a passkey: Cognito verifies it with the caller token, passkeys then count as MFA, the list comes back', async () => {
    h.cognito.on(CompleteWebAuthnRegistrationCommand).resolves({});
    h.cognito.on(SetUserMFAPreferenceCommand).resolves({});
    h.cognito
      .on(ListWebAuthnCredentialsCommand)
      .resolves({ Credentials: [held('Y3JlZGVudGlhbC0x', '2026-11-20T10:00:00Z')] });
    const { token, res } = await callMfa({ action: 'COMPLETE_PASSKEY_REGISTRATION', credential });
    expect(res.status).toBe(200);
    expect(passkeyListResponseSchema.parse(res.body)).toEqual({
      passkeys: [
        {
          credentialId: 'Y3JlZGVudGlhbC0x',
          name: 'Passkey Y3JlZGVudGlhbC0x',
          createdAt: Date.parse('2026-11-20T10:00:00Z'),
          attachment: 'platform',
        },
      ],
      passkeyMfa: true,
      message: PASSKEY_ADDED_MESSAGE,
    });
    expect(h.cognito.commandCalls(CompleteWebAuthnRegistrationCommand)[0]?.args[0].input).toEqual({
      AccessToken: token,
      Credential: credential,
    });
    expect(h.cognito.commandCalls(SetUserMFAPreferenceCommand)[0]?.args[0].input).toEqual({
      AccessToken: token,
      WebAuthnMfaSettings: { Enabled: true },
    });
  });

  it('gives Cognito the creation options back as they came', async () => {
    const options = { challenge: 'Y2hhbGxlbmdl', rp: { id: 'portal.example.com', name: 'Portal' }, user: { id: 'dQ' } };
    h.cognito.on(StartWebAuthnRegistrationCommand).resolves({ CredentialCreationOptions: options });
    const { res } = await callMfa({ action: 'START_PASSKEY_REGISTRATION' });
    expect(res).toMatchObject({ status: 200, body: { options } });
  });

  it.each([
    ['START_PASSKEY_REGISTRATION', { action: 'START_PASSKEY_REGISTRATION' }],
    ['COMPLETE_PASSKEY_REGISTRATION', { action: 'COMPLETE_PASSKEY_REGISTRATION', credential }],
    ['DELETE_PASSKEY', { action: 'DELETE_PASSKEY', credentialId: 'Y3JlZGVudGlhbC0x' }],
  ])('needs a sign-in of the last 300 s for %s, and calls nothing without one', async (_action, body) => {
    const { res } = await callMfa(body, { signedInAgo: 301 });
    expect(res).toMatchObject({ status: 401, body: { reason: REAUTHENTICATION_REQUIRED } });
    const changes = h.cognito.calls().filter((c) => c.args[0].constructor.name !== 'GetUserCommand');
    expect(changes).toEqual([]);
  });

  it.each([
    ['a credential without its attestation', { ...credential, response: { clientDataJSON: 'eyJ9' } }],
    ['a credential id that is not base64url', { ...credential, id: 'not base64url!' }],
    ['a credential of another type', { ...credential, type: 'password' }],
  ])('refuses %s with 400 and sends nothing to Cognito', async (_case, bad) => {
    const { res } = await callMfa({ action: 'COMPLETE_PASSKEY_REGISTRATION', credential: bad });
    expect(res.status).toBe(400);
    expect(h.cognito.commandCalls(CompleteWebAuthnRegistrationCommand)).toHaveLength(0);
  });

  it.each([
    [
      new WebAuthnRelyingPartyMismatchException({ message: 'mismatch', $metadata: {} }),
      400,
      PASSKEY_ERRORS.relyingPartyMismatch,
    ],
    [new WebAuthnChallengeNotFoundException({ message: 'no challenge', $metadata: {} }), 400, PASSKEY_ERRORS.aborted],
  ])(
    'answers Cognito refusing the credential (%s) in the user terms, and keeps passkeys out of MFA',
    async (error, status, text) => {
      h.cognito.on(CompleteWebAuthnRegistrationCommand).rejects(error);
      const { res } = await callMfa({ action: 'COMPLETE_PASSKEY_REGISTRATION', credential });
      expect(res).toMatchObject({ status, body: { error: text } });
      expect(h.cognito.commandCalls(SetUserMFAPreferenceCommand)).toHaveLength(0);
    },
  );

  it('lists from the portal record with a refreshed token, which may not call Cognito', async () => {
    passkeyMfa(true);
    h.cognito.on(CompleteWebAuthnRegistrationCommand).resolves({});
    h.cognito.on(SetUserMFAPreferenceCommand).resolves({});
    h.cognito
      .on(ListWebAuthnCredentialsCommand)
      .resolves({ Credentials: [held('a2V5LTE', '2026-11-20T10:00:00Z', 'Laptop')] });
    await callMfa({ action: 'COMPLETE_PASSKEY_REGISTRATION', credential });
    h.cognito.resetHistory();
    const refreshed = await h.token(USER, { refreshed: true });
    passkeyMfa(true);
    const res = await invoke(mfa, { token: refreshed, body: { action: 'LIST_PASSKEYS' } });
    expect(res.status).toBe(200);
    expect(passkeyListResponseSchema.parse(res.body)).toMatchObject({
      passkeys: [{ credentialId: 'a2V5LTE', name: 'Laptop' }],
      passkeyMfa: true,
    });
    expect(h.cognito.commandCalls(ListWebAuthnCredentialsCommand)).toHaveLength(0);
  });

  it('removes a passkey; with the last one gone, passkeys no longer count as MFA', async () => {
    h.cognito.on(DeleteWebAuthnCredentialCommand).resolves({});
    h.cognito.on(ListWebAuthnCredentialsCommand).resolves({ Credentials: [] });
    h.cognito.on(SetUserMFAPreferenceCommand).resolves({});
    const { token, res } = await callMfa({ action: 'DELETE_PASSKEY', credentialId: 'a2V5LTE' });
    expect(res).toMatchObject({
      status: 200,
      body: { passkeys: [], passkeyMfa: false, message: PASSKEY_REMOVED_MESSAGE },
    });
    expect(h.cognito.commandCalls(DeleteWebAuthnCredentialCommand)[0]?.args[0].input).toEqual({
      AccessToken: token,
      CredentialId: 'a2V5LTE',
    });
    expect(h.cognito.commandCalls(SetUserMFAPreferenceCommand)[0]?.args[0].input.WebAuthnMfaSettings).toEqual({
      Enabled: false,
    });
  });

  it('answers 404 for a passkey Cognito does not hold for the caller', async () => {
    h.cognito
      .on(DeleteWebAuthnCredentialCommand)
      .rejects(new ResourceNotFoundException({ message: 'Credential not found', $metadata: {} }));
    const { res } = await callMfa({ action: 'DELETE_PASSKEY', credentialId: 'b3RoZXI' });
    expect(res).toMatchObject({ status: 404, body: { error: 'Passkey not found' } });
    expect(h.cognito.commandCalls(SetUserMFAPreferenceCommand)).toHaveLength(0);
  });

  it('records the last use of a passkey of the caller right after the sign-in, and nothing else', async () => {
    h.cognito.on(ListWebAuthnCredentialsCommand).resolves({ Credentials: [held('a2V5LTE', '2026-11-20T10:00:00Z')] });
    passkeyMfa(true);
    await callMfa({ action: 'LIST_PASSKEYS' });
    const { token, res } = await callMfa({ action: 'PASSKEY_USED', credentialId: 'a2V5LTE' }, { signedInAgo: 10 });
    expect(res.status).toBe(200);
    const authTime = JSON.parse(Buffer.from(token.split('.')[1]!, 'base64url').toString()).auth_time as number;
    const listed = await callMfa({ action: 'LIST_PASSKEYS' }, { refreshed: true });
    expect(listed.res.body).toMatchObject({ passkeys: [{ credentialId: 'a2V5LTE', lastUsedAt: authTime * 1000 }] });

    const unknown = await callMfa({ action: 'PASSKEY_USED', credentialId: 'b3RoZXI' }, { signedInAgo: 10 });
    expect(unknown.res.status).toBe(404);
    const late = await callMfa({ action: 'PASSKEY_USED', credentialId: 'a2V5LTE' }, { signedInAgo: 600 });
    expect(late.res.status).toBe(400);
  });
});

describe('passkeys and the administrators', () => {
  const adminCall = async (body: unknown) => invoke(userAdmin, { token: await h.token(ADMIN), body });

  it("shows a user's factors: the authenticator from Cognito, passkeys from the portal record", async () => {
    h.cognito
      .on(ListWebAuthnCredentialsCommand)
      .resolves({ Credentials: [held('a2V5LTE', '2026-11-20T10:00:00Z', 'Phone')] });
    passkeyMfa(true);
    await callMfa({ action: 'LIST_PASSKEYS' });
    h.cognito.on(AdminGetUserCommand, { Username: USER.email }).resolves({
      Username: USER.username,
      UserMFASettingList: ['SOFTWARE_TOKEN_MFA', 'WEB_AUTHN'],
    });
    const res = await adminCall({ action: 'GET_USER_FACTORS', userEmail: USER.email });
    expect(res.status).toBe(200);
    expect(userFactorsSchema.parse(res.body)).toEqual({
      authenticator: true,
      passkeyMfa: true,
      passkeys: [
        {
          credentialId: 'a2V5LTE',
          name: 'Phone',
          createdAt: Date.parse('2026-11-20T10:00:00Z'),
          attachment: 'platform',
        },
      ],
    });
  });

  it('Reset MFA takes passkeys out of MFA at once, forgets them, and the next list deletes what Cognito held before it', async () => {
    h.groupMembers('Admins', [ADMIN]);
    h.groupMembers('Users', [USER]);
    h.cognito.on(ListWebAuthnCredentialsCommand).resolves({ Credentials: [held('b2xk', '2026-11-20T10:00:00Z')] });
    passkeyMfa(true);
    await callMfa({ action: 'LIST_PASSKEYS' });
    h.cognito.on(AdminSetUserMFAPreferenceCommand).resolves({});
    h.cognito.on(AdminGetUserCommand, { Username: USER.email }).resolves({
      Username: USER.username,
      UserStatus: 'CONFIRMED',
      UserMFASettingList: ['SOFTWARE_TOKEN_MFA', 'WEB_AUTHN'],
    });
    const reset = await adminCall({ action: 'RESET_USER_MFA', userEmail: USER.email });
    expect(reset.body).toMatchObject({ message: RESET_MFA_MESSAGE });
    expect(
      h.cognito
        .commandCalls(AdminSetUserMFAPreferenceCommand)
        .map((c) => c.args[0].input)
        .find((input) => input.WebAuthnMfaSettings !== undefined),
    ).toMatchObject({ Username: USER.email, WebAuthnMfaSettings: { Enabled: false } });

    h.cognito
      .on(AdminGetUserCommand, { Username: USER.email })
      .resolves({ Username: USER.username, UserMFASettingList: [] });
    const factors = await adminCall({ action: 'GET_USER_FACTORS', userEmail: USER.email });
    expect(factors.body).toMatchObject({ authenticator: false, passkeys: [] });

    // The user signs in again and adds a new passkey; the old one is deleted at the next list.
    h.cognito.on(ListWebAuthnCredentialsCommand).resolves({
      Credentials: [held('b2xk', '2026-11-20T10:00:00Z'), held('bmV3', new Date(Date.now() + 1_000).toISOString())],
    });
    h.cognito.on(DeleteWebAuthnCredentialCommand).resolves({});
    passkeyMfa(false);
    const listed = await callMfa({ action: 'LIST_PASSKEYS' });
    expect(h.cognito.commandCalls(DeleteWebAuthnCredentialCommand).map((c) => c.args[0].input.CredentialId)).toEqual([
      'b2xk',
    ]);
    expect(listed.res.body).toMatchObject({ passkeys: [{ credentialId: 'bmV3' }] });

    // Done once: a later list deletes nothing more.
    h.cognito.resetHistory();
    await callMfa({ action: 'LIST_PASSKEYS' });
    expect(h.cognito.commandCalls(DeleteWebAuthnCredentialCommand)).toHaveLength(0);
  });
});

import {
  AdminForgetDeviceCommand,
  AdminGetUserCommand,
  AdminListDevicesCommand,
  AdminUserGlobalSignOutCommand,
  AssociateSoftwareTokenCommand,
  GetUserCommand,
  ResourceNotFoundException,
} from '@aws-sdk/client-cognito-identity-provider';
import { decodeJwt } from 'jose';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { REAUTHENTICATION_REQUIRED } from '#contracts/mfa.ts';
import { account, type Handler, type Harness, invoke, loadHandler, startHarness, USER } from './support/harness.ts';

/**
 * Tokens from a refresh carry no `aws.cognito.signin.user.admin` scope (the pre token
 * generation trigger suppresses it), so Cognito's GetUser refuses them. The functions check
 * such a token's account with AdminGetUser and the record of ended sessions instead.
 */

let h: Harness;
let mfa: Handler;
let embed: Handler;

beforeAll(async () => {
  h = await startHarness({ MFA_CONFIGURATION: 'ON' });
  mfa = await loadHandler('mfa');
  embed = await loadHandler('embed');
});
afterAll(() => h.close());
beforeEach(() => h.reset());

const status = (token: string) => invoke(mfa, { token, body: { action: 'GET_MFA_STATUS' } });

describe('a token from a refresh', () => {
  it('is served after AdminGetUser finds the account enabled and confirmed, without GetUser', async () => {
    const token = await h.token(USER, { refreshed: true });
    const res = await status(token);
    expect(res).toMatchObject({ status: 200, body: { mfaEnabled: true, preferredMfa: 'SOFTWARE_TOKEN_MFA' } });
    expect(h.cognito.commandCalls(GetUserCommand)).toHaveLength(0);
    expect(h.cognito.commandCalls(AdminGetUserCommand).map((call) => call.args[0].input)).toEqual([
      { UserPoolId: 'us-east-2_TestPool1', Username: USER.username },
    ]);
  });

  it('is refused once the account is disabled, unconfirmed or deleted', async () => {
    const token = await h.token(USER, { refreshed: true });
    h.cognito
      .on(AdminGetUserCommand, { Username: USER.username })
      .resolves({ Username: USER.username, Enabled: false, UserStatus: 'CONFIRMED' });
    expect((await status(token)).status).toBe(401);
    h.cognito
      .on(AdminGetUserCommand, { Username: USER.username })
      .resolves({ Username: USER.username, Enabled: true, UserStatus: 'RESET_REQUIRED' });
    expect((await status(token)).status).toBe(401);
    h.cognito
      .on(AdminGetUserCommand, { Username: USER.username })
      .rejects(Object.assign(new Error('User does not exist.'), { name: 'UserNotFoundException' }));
    expect((await invoke(embed, { token, method: 'GET' })).status).toBe(401);
  });

  it('is refused after Log out (SIGN_OUT_EVERYWHERE), and a later sign-in is served', async () => {
    h.cognito.on(AdminUserGlobalSignOutCommand).resolves({});
    const old = await h.token(USER, { refreshed: true, signedInAgo: 600 });
    expect((await status(old)).status).toBe(200);
    const out = await invoke(mfa, { token: old, body: { action: 'SIGN_OUT_EVERYWHERE' } });
    expect(out).toMatchObject({ status: 200, body: { message: 'Signed out on every device' } });
    expect(h.cognito.commandCalls(AdminUserGlobalSignOutCommand).map((call) => call.args[0].input)).toEqual([
      { UserPoolId: 'us-east-2_TestPool1', Username: USER.username },
    ]);
    expect(await status(old)).toMatchObject({
      status: 401,
      body: { error: 'Your session is no longer valid. Please sign in again.' },
    });
    // A sign-in after the end (here, one second later) is a new session.
    const fresh = await h.token(USER, { refreshed: true, issuedAhead: 1 });
    expect((await status(fresh)).status).toBe(200);
  });

  it('is refused when its sign-in was in the same second as the end of every session (a password reset)', async () => {
    const token = await h.token(USER, { refreshed: true, signedInAgo: 30 });
    expect((await status(token)).status).toBe(200);
    // The reset's record carries the very second the token's session began in.
    const signedInAt = decodeJwt(token).auth_time as number;
    await h.tables.put('STATE_TABLE', {
      pk: 'SESSIONS_ENDED',
      sk: USER.username,
      endedAt: signedInAt,
      expiresAt: signedInAt + 86_400,
    });
    expect(await status(token)).toMatchObject({
      status: 401,
      body: { error: 'Your session is no longer valid. Please sign in again.' },
    });
    // A session begun the second after the end is a new one.
    await h.tables.put('STATE_TABLE', {
      pk: 'SESSIONS_ENDED',
      sk: USER.username,
      endedAt: signedInAt - 1,
      expiresAt: signedInAt + 86_400,
    });
    expect((await status(token)).status).toBe(200);
  });

  it('cannot change the authenticator even within 5 minutes of its sign-in: the function asks for a sign-in', async () => {
    const token = await h.token(USER, { refreshed: true, signedInAgo: 10 });
    const res = await invoke(mfa, { token, body: { action: 'ASSOCIATE_SOFTWARE_TOKEN' } });
    expect(res).toMatchObject({ status: 401, body: { reason: REAUTHENTICATION_REQUIRED } });
    expect(h.cognito.commandCalls(AssociateSoftwareTokenCommand)).toHaveLength(0);
  });

  it("lists and forgets the caller's own devices through the admin API", async () => {
    const key = 'us-east-2_6a1f3c2e-9d4b-4c8e-a2f1-0b3c4d5e6f70';
    h.cognito.on(AdminListDevicesCommand).resolves({
      Devices: [
        {
          DeviceKey: key,
          DeviceAttributes: [
            { Name: 'device_name', Value: 'Laptop' },
            { Name: 'dev:device_remembered_status', Value: 'remembered' },
          ],
          DeviceLastAuthenticatedDate: new Date('2026-11-20T10:00:00Z'),
        },
      ],
    });
    h.cognito.on(AdminForgetDeviceCommand).resolves({});
    const token = await h.token(USER, { refreshed: true });
    expect(await invoke(mfa, { token, body: { action: 'LIST_DEVICES' } })).toMatchObject({
      status: 200,
      body: { devices: [{ key, name: 'Laptop', remembered: true, lastUsed: Date.parse('2026-11-20T10:00:00Z') }] },
    });
    expect(h.cognito.commandCalls(AdminListDevicesCommand)[0]?.args[0].input).toMatchObject({
      Username: USER.username,
      Limit: 60,
    });
    expect(await invoke(mfa, { token, body: { action: 'FORGET_DEVICE', deviceKey: key } })).toMatchObject({
      status: 200,
    });
    expect(h.cognito.commandCalls(AdminForgetDeviceCommand)[0]?.args[0].input).toEqual({
      UserPoolId: 'us-east-2_TestPool1',
      Username: USER.username,
      DeviceKey: key,
    });

    h.cognito
      .on(AdminForgetDeviceCommand)
      .rejects(new ResourceNotFoundException({ message: 'Device does not exist.', $metadata: {} }));
    expect((await invoke(mfa, { token, body: { action: 'FORGET_DEVICE', deviceKey: key } })).status).toBe(404);
    expect((await invoke(mfa, { token, body: { action: 'FORGET_DEVICE', deviceKey: '../other' } })).status).toBe(400);
  });
});

describe('token times', () => {
  it('refuses a token whose sign-in is later than its own issue (a future auth_time)', async () => {
    const token = await h.token(USER, { signedInAfterIssue: 3600 });
    const res = await status(token);
    expect(res).toMatchObject({ status: 401, body: { error: 'Invalid authentication token' } });
    expect(h.cognito.calls()).toHaveLength(0);
  });

  it('refuses a token issued more than 60 s ahead of the function clock, and accepts one 30 s ahead', async () => {
    expect((await status(await h.token(USER, { issuedAhead: 120 }))).status).toBe(401);
    expect((await status(await h.token(USER, { issuedAhead: 30 }))).status).toBe(200);
  });
});

describe('the caller email', () => {
  it('is used only once verified: an account whose email awaits verification is refused', async () => {
    const pending = account('pending@example.com', ['Users']);
    const token = await h.token(pending);
    h.cognito.on(GetUserCommand).resolves({
      Username: pending.username,
      UserAttributes: [
        { Name: 'email', Value: pending.email },
        { Name: 'email_verified', Value: 'false' },
      ],
    });
    expect(await status(token)).toMatchObject({
      status: 401,
      body: { error: 'The signed-in account has no verified email address' },
    });
  });
});

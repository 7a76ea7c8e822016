import {
  AdminDeleteSoftwareTokenCommand,
  AdminSetUserMFAPreferenceCommand,
  AssociateSoftwareTokenCommand,
  CodeMismatchException,
  GetUserCommand,
  SetUserMFAPreferenceCommand,
  VerifySoftwareTokenCommand,
} from '@aws-sdk/client-cognito-identity-provider';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  disableMfaResponseSchema,
  MFA_REQUIRED_MESSAGE,
  mfaStatusResponseSchema,
  REAUTHENTICATION_MESSAGE,
  REAUTHENTICATION_REQUIRED,
} from '#contracts/mfa.ts';
import { MESSAGES } from '#contracts/fields.ts';
import { account, type Handler, type Harness, invoke, loadHandler, startHarness, USER } from './support/harness.ts';

let h: Harness;
let handler: Handler;

// The pool requires MFA, as the CDK app configures it; tests of an optional pool switch it.
const POOL_MFA = 'MFA_CONFIGURATION';
beforeAll(async () => {
  h = await startHarness({ [POOL_MFA]: 'ON' });
  handler = await loadHandler('mfa');
});
afterAll(() => h.close());
beforeEach(() => h.reset());
afterEach(() => {
  process.env[POOL_MFA] = 'ON';
});

/** Any Cognito call besides the liveness check (GetUser). */
const changesSent = () => h.cognito.calls().filter((c) => c.args[0].constructor.name !== 'GetUserCommand');

const call = async (body: unknown, who = USER) => {
  const token = await h.token(who);
  return { token, res: await invoke(handler, { token, body }) };
};

describe('MFA function', () => {
  it("associates a software token with the caller's own access token and returns the secret", async () => {
    h.cognito.on(AssociateSoftwareTokenCommand).resolves({ SecretCode: 'JBSWY3DPEHPK3PXP' });
    const { token, res } = await call({ action: 'ASSOCIATE_SOFTWARE_TOKEN' });
    expect(res).toMatchObject({ status: 200, body: { secretCode: 'JBSWY3DPEHPK3PXP' } });
    expect(h.cognito.commandCalls(AssociateSoftwareTokenCommand)[0]?.args[0].input).toEqual({ AccessToken: token });
  });

  it('verifies the code, then makes TOTP the preferred method', async () => {
    h.cognito.on(VerifySoftwareTokenCommand).resolves({ Status: 'SUCCESS' });
    h.cognito.on(SetUserMFAPreferenceCommand).resolves({});
    const { token, res } = await call({
      action: 'VERIFY_SOFTWARE_TOKEN',
      mfaCode: '123456',
      friendlyDeviceName: 'Phone',
    });
    expect(res).toMatchObject({
      status: 200,
      body: { status: 'SUCCESS', message: 'MFA setup completed successfully!' },
    });
    expect(h.cognito.commandCalls(VerifySoftwareTokenCommand)[0]?.args[0].input).toEqual({
      AccessToken: token,
      UserCode: '123456',
      FriendlyDeviceName: 'Phone',
    });
    expect(h.cognito.commandCalls(SetUserMFAPreferenceCommand)[0]?.args[0].input.SoftwareTokenMfaSettings).toEqual({
      Enabled: true,
      PreferredMfa: true,
    });
  });

  it('answers 400 for a wrong code and keeps the preference unchanged', async () => {
    h.cognito
      .on(VerifySoftwareTokenCommand)
      .rejects(new CodeMismatchException({ message: 'Invalid code received for user', $metadata: {} }));
    const { res } = await call({ action: 'VERIFY_SOFTWARE_TOKEN', mfaCode: '000000' });
    expect(res.status).toBe(400);
    expect(res.body.fields).toEqual(['mfaCode']);
    expect(h.cognito.commandCalls(SetUserMFAPreferenceCommand)).toHaveLength(0);
  });

  it.each([['12345'], ['12345a'], ['1234567'], [undefined]])(
    'refuses the code %j with the spec message',
    async (mfaCode) => {
      const { res } = await call({ action: 'VERIFY_SOFTWARE_TOKEN', mfaCode });
      expect(res).toMatchObject({ status: 400, body: { error: MESSAGES.mfaCode, fields: ['mfaCode'] } });
      expect(h.cognito.commandCalls(VerifySoftwareTokenCommand)).toHaveLength(0);
    },
  );

  it('sets the MFA preference', async () => {
    h.cognito.on(SetUserMFAPreferenceCommand).resolves({});
    const { res } = await call({ action: 'SET_MFA_PREFERENCE', enabled: true, preferred: false });
    expect(res.status).toBe(200);
    expect(h.cognito.commandCalls(SetUserMFAPreferenceCommand)[0]?.args[0].input.SoftwareTokenMfaSettings).toEqual({
      Enabled: true,
      PreferredMfa: false,
    });
  });

  it('reports the MFA status from the session check, with no further call', async () => {
    const { res } = await call({ action: 'GET_MFA_STATUS' });
    expect(mfaStatusResponseSchema.parse(res.body)).toEqual({
      mfaEnabled: true,
      mfaDevices: [{ DeliveryMedium: 'SOFTWARE_TOKEN' }],
      preferredMfa: 'SOFTWARE_TOKEN_MFA',
      mfaRequired: true,
    });
    expect(changesSent()).toEqual([]);
  });

  describe('where the pool requires MFA and the account has no MFA preference (set up at sign-in, no preference set since)', () => {
    // Cognito's setting list stays empty after MFA_SETUP until a preference is set
    // (https://docs.aws.amazon.com/cognito/latest/developerguide/user-pool-settings-mfa-totp.html),
    // yet signing in to a pool that requires TOTP took a verified authenticator.
    const enrolled = () => account('enrolled.at.sign-in@example.com', ['Users'], false);
    const ENABLED = { mfaEnabled: true, mfaDevices: [{ DeliveryMedium: 'SOFTWARE_TOKEN' }], mfaRequired: true };

    it('reports MFA enabled and sets TOTP as enabled and preferred for the caller alone', async () => {
      h.cognito.on(AdminSetUserMFAPreferenceCommand).resolves({});
      const caller = enrolled();
      const { res } = await call({ action: 'GET_MFA_STATUS', username: 'someone-else' }, caller);
      expect(mfaStatusResponseSchema.parse(res.body)).toEqual({ ...ENABLED, preferredMfa: 'SOFTWARE_TOKEN_MFA' });
      expect(h.cognito.commandCalls(AdminSetUserMFAPreferenceCommand).map((c) => c.args[0].input)).toEqual([
        {
          UserPoolId: 'us-east-2_TestPool1',
          Username: caller.username,
          SoftwareTokenMfaSettings: { Enabled: true, PreferredMfa: true },
        },
      ]);
      expect(changesSent()).toHaveLength(1);
    });

    it('does the same for a refreshed token, which cannot call Cognito itself', async () => {
      h.cognito.on(AdminSetUserMFAPreferenceCommand).resolves({});
      const caller = enrolled();
      const token = await h.token(caller, { refreshed: true });
      const res = await invoke(handler, { token, body: { action: 'GET_MFA_STATUS' } });
      expect(res.body).toEqual({ ...ENABLED, preferredMfa: 'SOFTWARE_TOKEN_MFA' });
      expect(h.cognito.commandCalls(AdminSetUserMFAPreferenceCommand)).toHaveLength(1);
    });

    it('reports MFA disabled when Cognito says the account has no verified authenticator (removed since the sign-in)', async () => {
      h.cognito
        .on(AdminSetUserMFAPreferenceCommand)
        .rejects(
          Object.assign(new Error('User has not verified software token mfa'), { name: 'InvalidParameterException' }),
        );
      const { res } = await call({ action: 'GET_MFA_STATUS' }, enrolled());
      expect(res.body).toEqual({ mfaEnabled: false, mfaDevices: [], mfaRequired: true });
    });

    it('still reports MFA enabled when setting the preference fails otherwise, without a preferred method', async () => {
      h.cognito
        .on(AdminSetUserMFAPreferenceCommand)
        .rejects(Object.assign(new Error('Internal error'), { name: 'InternalErrorException' }));
      const { res } = await call({ action: 'GET_MFA_STATUS' }, enrolled());
      expect(res).toMatchObject({ status: 200, body: ENABLED });
      expect(res.body).not.toHaveProperty('preferredMfa');
    });

    it('changes nothing where MFA is optional: an account without a preference there may have no authenticator', async () => {
      process.env[POOL_MFA] = 'OPTIONAL';
      const { res } = await call({ action: 'GET_MFA_STATUS' }, enrolled());
      expect(res.body).toEqual({ mfaEnabled: false, mfaDevices: [], mfaRequired: false });
      expect(changesSent()).toEqual([]);
    });
  });

  it('asks Cognito afresh on every request, so the status is never an earlier answer', async () => {
    const { token } = await call({ action: 'GET_MFA_STATUS' });
    const before = h.cognito.commandCalls(GetUserCommand).length;
    await invoke(handler, { token, body: { action: 'GET_MFA_STATUS' } });
    expect(h.cognito.commandCalls(GetUserCommand).length).toBe(before + 1);
  });

  it.each([
    ['OPTIONAL', false],
    ['OFF', false],
  ])('reports mfaRequired for a pool whose MFA is %s', async (mode, required) => {
    process.env[POOL_MFA] = mode;
    const { res } = await call({ action: 'GET_MFA_STATUS' });
    expect(res.status).toBe(200);
    expect(res.body.mfaRequired).toBe(required);
  });

  it('answers a configuration error naming MFA_CONFIGURATION when it is missing or unknown', async () => {
    delete process.env[POOL_MFA];
    const missing = await call({ action: 'GET_MFA_STATUS' });
    expect(missing.res).toMatchObject({ status: 500, body: { missing: [POOL_MFA] } });
    process.env[POOL_MFA] = 'REQUIRED';
    const unknown = await call({ action: 'DISABLE_MFA' });
    expect(unknown.res).toMatchObject({
      status: 500,
      body: { missing: [POOL_MFA], reason: 'MFA_CONFIGURATION must be ON, OPTIONAL or OFF' },
    });
    expect(changesSent()).toEqual([]);
  });

  it('refuses DISABLE_MFA with 409 where the pool requires MFA, and changes nothing', async () => {
    const { res } = await call({ action: 'DISABLE_MFA' });
    expect(res).toMatchObject({ status: 409, body: { error: MFA_REQUIRED_MESSAGE } });
    expect(changesSent()).toEqual([]);
  });

  it('refuses switching TOTP off through SET_MFA_PREFERENCE where the pool requires MFA', async () => {
    const { res } = await call({ action: 'SET_MFA_PREFERENCE', enabled: false });
    expect(res).toMatchObject({ status: 409, body: { error: MFA_REQUIRED_MESSAGE } });
    expect(changesSent()).toEqual([]);
  });

  it("disables MFA where it is optional, with the caller's own token only", async () => {
    process.env[POOL_MFA] = 'OPTIONAL';
    h.cognito.on(SetUserMFAPreferenceCommand).resolves({});
    const { token, res } = await call({ action: 'DISABLE_MFA', username: 'someone-else' });
    expect(res.status).toBe(200);
    expect(disableMfaResponseSchema.parse(res.body)).toEqual({ message: 'MFA has been disabled successfully' });
    expect(h.cognito.commandCalls(SetUserMFAPreferenceCommand).map((c) => c.args[0].input)).toEqual([
      { AccessToken: token, SoftwareTokenMfaSettings: { Enabled: false, PreferredMfa: false } },
    ]);
    expect(h.cognito.commandCalls(AdminSetUserMFAPreferenceCommand)).toHaveLength(0);
    expect(h.cognito.commandCalls(AdminDeleteSoftwareTokenCommand)).toHaveLength(0);
  });

  it('reports a refused disable where MFA is optional', async () => {
    process.env[POOL_MFA] = 'OPTIONAL';
    h.cognito.on(SetUserMFAPreferenceCommand).rejects(new Error('boom'));
    const { res } = await call({ action: 'DISABLE_MFA' });
    expect(res).toMatchObject({ status: 502, body: { error: 'Failed to disable MFA' } });
  });

  it('replaces an enrolled authenticator: associate, then verify the new code and keep TOTP preferred', async () => {
    h.cognito.on(AssociateSoftwareTokenCommand).resolves({ SecretCode: 'NEWSECRETNEWSECR' });
    h.cognito.on(VerifySoftwareTokenCommand).resolves({ Status: 'SUCCESS' });
    h.cognito.on(SetUserMFAPreferenceCommand).resolves({});
    const associated = await call({ action: 'ASSOCIATE_SOFTWARE_TOKEN' });
    expect(associated.res.body).toEqual({ secretCode: 'NEWSECRETNEWSECR' });
    const verified = await call({ action: 'VERIFY_SOFTWARE_TOKEN', mfaCode: '654321' });
    expect(verified.res.status).toBe(200);
    expect(changesSent().map((c) => c.args[0].constructor.name)).toEqual([
      'AssociateSoftwareTokenCommand',
      'VerifySoftwareTokenCommand',
      'SetUserMFAPreferenceCommand',
    ]);
    for (const c of changesSent()) expect(c.args[0].input).toMatchObject({ AccessToken: expect.any(String) });
  });

  it.each(['ON', 'OPTIONAL'])(
    "sends only calls made with the caller's token in a pool whose MFA is %s (the function has no Cognito grant)",
    async (mode) => {
      process.env[POOL_MFA] = mode;
      h.cognito.on(AssociateSoftwareTokenCommand).resolves({ SecretCode: 'JBSWY3DPEHPK3PXP' });
      h.cognito.on(VerifySoftwareTokenCommand).resolves({ Status: 'SUCCESS' });
      h.cognito.on(SetUserMFAPreferenceCommand).resolves({});
      const bodies = [
        { action: 'GET_MFA_STATUS' },
        { action: 'ASSOCIATE_SOFTWARE_TOKEN' },
        { action: 'VERIFY_SOFTWARE_TOKEN', mfaCode: '123456' },
        { action: 'SET_MFA_PREFERENCE', enabled: true },
        { action: 'SET_MFA_PREFERENCE', enabled: false },
        { action: 'DISABLE_MFA' },
      ];
      for (const body of bodies) await call(body);
      expect(changesSent().length).toBeGreaterThan(0);
      for (const c of h.cognito.calls()) {
        expect(c.args[0].constructor.name).not.toMatch(/^Admin/);
        expect(c.args[0].input).toHaveProperty('AccessToken');
      }
    },
  );

  it('refuses an unknown action', async () => {
    const { res } = await call({ action: 'EXPORT_SECRET' });
    expect(res).toMatchObject({ status: 400, body: { error: 'Unknown action: EXPORT_SECRET' } });
  });
});

describe('step-up for authenticator changes', () => {
  const STEP_UP_BODIES = [
    { action: 'ASSOCIATE_SOFTWARE_TOKEN' },
    { action: 'VERIFY_SOFTWARE_TOKEN', mfaCode: '123456' },
    { action: 'SET_MFA_PREFERENCE', enabled: true },
    { action: 'DISABLE_MFA' },
  ];

  it.each(STEP_UP_BODIES.map((body) => [body.action, body]))(
    'refuses %s with 401 reauthenticationRequired when the sign-in is older than 5 minutes',
    async (_action, body) => {
      process.env[POOL_MFA] = 'OPTIONAL';
      const token = await h.token(USER, { signedInAgo: 300 + 5 });
      const res = await invoke(handler, { token, body });
      expect(res).toMatchObject({
        status: 401,
        body: { error: REAUTHENTICATION_MESSAGE, reason: REAUTHENTICATION_REQUIRED },
      });
      expect(changesSent()).toHaveLength(0);
    },
  );

  it('takes a sign-in exactly 300 s old and refuses one 301 s old (the 5-minute step-up window)', async () => {
    process.env[POOL_MFA] = 'OPTIONAL';
    h.cognito.on(AssociateSoftwareTokenCommand).resolves({ SecretCode: 'JBSWY3DPEHPK3PXP' });
    vi.useFakeTimers({ toFake: ['Date'] });
    try {
      vi.setSystemTime(new Date('2026-03-02T10:00:00.500Z'));
      const atLimit = await h.token(USER, { signedInAgo: 300 });
      expect((await invoke(handler, { token: atLimit, body: { action: 'ASSOCIATE_SOFTWARE_TOKEN' } })).status).toBe(
        200,
      );
      const over = await h.token(USER, { signedInAgo: 301 });
      const res = await invoke(handler, { token: over, body: { action: 'ASSOCIATE_SOFTWARE_TOKEN' } });
      expect(res).toMatchObject({
        status: 401,
        body: { error: REAUTHENTICATION_MESSAGE, reason: REAUTHENTICATION_REQUIRED },
      });
    } finally {
      vi.useRealTimers();
    }
  });

  it('accepts a sign-in just inside the window and still reads the status of an old one', async () => {
    h.cognito.on(AssociateSoftwareTokenCommand).resolves({ SecretCode: 'JBSWY3DPEHPK3PXP' });
    const recent = await h.token(USER, { signedInAgo: 300 - 5 });
    expect((await invoke(handler, { token: recent, body: { action: 'ASSOCIATE_SOFTWARE_TOKEN' } })).status).toBe(200);
    // Two hours: long past the step-up window, well within the absolute session lifetime.
    const old = await h.token(USER, { signedInAgo: 2 * 60 * 60 });
    expect((await invoke(handler, { token: old, body: { action: 'GET_MFA_STATUS' } })).status).toBe(200);
  });
});

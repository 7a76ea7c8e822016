import {
  AdminSetUserMFAPreferenceCommand,
  AssociateSoftwareTokenCommand,
  CodeMismatchException,
  SetUserMFAPreferenceCommand,
  VerifySoftwareTokenCommand,
} from '@aws-sdk/client-cognito-identity-provider';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { disableMfaResponseSchema, mfaStatusResponseSchema } from '../../contracts/mfa.ts';
import { MESSAGES } from '../../contracts/fields.ts';
import { account, type Handler, type Harness, invoke, loadHandler, POOL_ID_FOR_TESTS, startHarness, USER } from './support/harness.ts';

let h: Harness;
let handler: Handler;

beforeAll(async () => {
  h = await startHarness();
  handler = await loadHandler('mfa');
});
afterAll(() => h.close());
beforeEach(() => h.reset());

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
    const { token, res } = await call({ action: 'VERIFY_SOFTWARE_TOKEN', mfaCode: '123456', friendlyDeviceName: 'Phone' });
    expect(res).toMatchObject({ status: 200, body: { status: 'SUCCESS', message: 'MFA setup completed successfully!' } });
    expect(h.cognito.commandCalls(VerifySoftwareTokenCommand)[0]?.args[0].input).toEqual({ AccessToken: token, UserCode: '123456', FriendlyDeviceName: 'Phone' });
    expect(h.cognito.commandCalls(SetUserMFAPreferenceCommand)[0]?.args[0].input.SoftwareTokenMfaSettings).toEqual({ Enabled: true, PreferredMfa: true });
  });

  it('answers 400 for a wrong code and keeps the preference unchanged', async () => {
    h.cognito.on(VerifySoftwareTokenCommand).rejects(new CodeMismatchException({ message: 'Invalid code received for user', $metadata: {} }));
    const { res } = await call({ action: 'VERIFY_SOFTWARE_TOKEN', mfaCode: '000000' });
    expect(res.status).toBe(400);
    expect(res.body.fields).toEqual(['mfaCode']);
    expect(h.cognito.commandCalls(SetUserMFAPreferenceCommand)).toHaveLength(0);
  });

  it.each([['12345'], ['12345a'], ['1234567'], [undefined]])('refuses the code %j with the spec message', async (mfaCode) => {
    const { res } = await call({ action: 'VERIFY_SOFTWARE_TOKEN', mfaCode });
    expect(res).toMatchObject({ status: 400, body: { error: MESSAGES.mfaCode, fields: ['mfaCode'] } });
    expect(h.cognito.commandCalls(VerifySoftwareTokenCommand)).toHaveLength(0);
  });

  it('sets the MFA preference', async () => {
    h.cognito.on(SetUserMFAPreferenceCommand).resolves({});
    const { res } = await call({ action: 'SET_MFA_PREFERENCE', enabled: true, preferred: false });
    expect(res.status).toBe(200);
    expect(h.cognito.commandCalls(SetUserMFAPreferenceCommand)[0]?.args[0].input.SoftwareTokenMfaSettings).toEqual({ Enabled: true, PreferredMfa: false });
  });

  it('reports the MFA status from the session check, with no further call', async () => {
    const { res } = await call({ action: 'GET_MFA_STATUS' });
    expect(mfaStatusResponseSchema.parse(res.body)).toEqual({
      mfaEnabled: true,
      mfaDevices: [{ DeliveryMedium: 'SOFTWARE_TOKEN' }],
      preferredMfa: 'SOFTWARE_TOKEN_MFA',
    });
    const withoutMfa = await call({ action: 'GET_MFA_STATUS' }, account('nomfa@example.com', ['Users'], false));
    expect(withoutMfa.res.body).toEqual({ mfaEnabled: false, mfaDevices: [] });
    expect(h.cognito.calls().every((c) => c.args[0].constructor.name === 'GetUserCommand')).toBe(true);
  });

  it('disables MFA for the caller only and says setup runs again at next sign-in', async () => {
    h.cognito.on(AdminSetUserMFAPreferenceCommand).resolves({});
    const { res } = await call({ action: 'DISABLE_MFA', username: 'someone-else' });
    expect(res.status).toBe(200);
    expect(disableMfaResponseSchema.parse(res.body).setupRequiredAtNextSignIn).toBe(true);
    expect(h.cognito.commandCalls(AdminSetUserMFAPreferenceCommand)[0]?.args[0].input).toEqual({
      UserPoolId: POOL_ID_FOR_TESTS,
      Username: USER.username,
      SoftwareTokenMfaSettings: { Enabled: false, PreferredMfa: false },
    });
  });

  it('refuses an unknown action', async () => {
    const { res } = await call({ action: 'EXPORT_SECRET' });
    expect(res).toMatchObject({ status: 400, body: { error: 'Unknown action: EXPORT_SECRET' } });
  });
});

import { describe, expect, it, vi } from 'vitest';
import { CognitoAuthService } from '#web/lib/auth/cognito-service.ts';
import { passkeySignIn } from '#web/lib/auth/passkey-sign-in.ts';

const ENDPOINT = 'http://127.0.0.1:9229/';
const POOL_ID = 'us-east-2_AbCdEf123';
const CLIENT_ID = 'portalclient';

/** An unsigned JWT: the library only decodes tokens (the functions verify them). */
const jwt = (claims: Record<string, unknown>) => {
  const part = (value: unknown) =>
    btoa(JSON.stringify(value)).replace(/=+$/, '').replace(/\+/g, '-').replace(/\//g, '_');
  const now = Math.floor(Date.now() / 1000);
  return `${part({ alg: 'none' })}.${part({ iat: now, exp: now + 3600, ...claims })}.sig`;
};

const TOKENS = {
  AccessToken: jwt({ token_use: 'access', username: 'jane', 'cognito:groups': ['Users'] }),
  IdToken: jwt({ token_use: 'id', email: 'jane.doe@example.com' }),
  RefreshToken: 'refresh',
};

type Answer = (body: Record<string, unknown>) => { status?: number; body: unknown };

/**
 * Cognito's JSON protocol as the identity library calls it: one answer per operation. The
 * SRP proof is not checked here; the first-time sign-in ends in the MFA_SETUP challenge.
 */
function stubCognito(overrides: Record<string, Answer> = {}) {
  const calls: { operation: string; body: Record<string, unknown> }[] = [];
  const answers: Record<string, Answer> = {
    InitiateAuth: () => ({
      body: {
        ChallengeName: 'PASSWORD_VERIFIER',
        ChallengeParameters: {
          SRP_B: 'abcdef0123456789'.repeat(16),
          SALT: '5eed',
          SECRET_BLOCK: 'c2VjcmV0',
          USER_ID_FOR_SRP: 'jane',
          USERNAME: 'jane',
        },
      },
    }),
    RespondToAuthChallenge: (body) =>
      body.ChallengeName === 'MFA_SETUP'
        ? { body: { AuthenticationResult: TOKENS } }
        : { body: { ChallengeName: 'MFA_SETUP', Session: 'setup-session', ChallengeParameters: {} } },
    AssociateSoftwareToken: () => ({ body: { SecretCode: 'JBSWY3DPEHPK3PXP', Session: 'associated-session' } }),
    VerifySoftwareToken: () => ({ body: { Status: 'SUCCESS', Session: 'verified-session' } }),
    SetUserMFAPreference: () => ({ body: {} }),
    ...overrides,
  };
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string, init: RequestInit) => {
      expect(url).toBe(ENDPOINT);
      const operation = String(new Headers(init.headers).get('X-Amz-Target')).split('.').pop() ?? '';
      const body = JSON.parse(String(init.body)) as Record<string, unknown>;
      calls.push({ operation, body });
      const answer = answers[operation]?.(body) ?? {
        status: 400,
        body: { __type: 'InvalidParameterException', message: operation },
      };
      return new Response(JSON.stringify(answer.body), { status: answer.status ?? 200 });
    }),
  );
  return calls;
}

const service = () =>
  new CognitoAuthService({
    userPoolId: POOL_ID,
    clientId: CLIENT_ID,
    endpoint: ENDPOINT,
    storage: window.localStorage,
  });

/** Signs in to the MFA_SETUP challenge, then associates and verifies a code. */
async function firstSignIn(auth: CognitoAuthService) {
  expect(await auth.signIn('jane.doe@example.com', 'Secret#2026')).toEqual({
    step: 'CONTINUE_SIGN_IN_WITH_TOTP_SETUP',
  });
  const setup = auth.signInMfaSetup();
  expect(await setup.associate()).toBe('JBSWY3DPEHPK3PXP');
  await setup.verify('123456');
}

describe('first sign-in with authenticator setup', () => {
  it('sets TOTP enabled and preferred with the new access token once the setup challenge is answered', async () => {
    const calls = stubCognito();
    const auth = service();
    await firstSignIn(auth);
    expect(calls.map((c) => c.operation)).toEqual([
      'InitiateAuth',
      'RespondToAuthChallenge',
      'AssociateSoftwareToken',
      'VerifySoftwareToken',
      'RespondToAuthChallenge',
      'SetUserMFAPreference',
    ]);
    expect(calls.at(-1)?.body).toEqual({
      SMSMfaSettings: null,
      SoftwareTokenMfaSettings: { PreferredMfa: true, Enabled: true },
      AccessToken: TOKENS.AccessToken,
    });
    expect((await auth.currentSession())?.email).toBe('jane.doe@example.com');
  });

  it('confirms the new device of that sign-in and keeps its key, so that its refresh can name it', async () => {
    const DEVICE_KEY = 'us-east-2_0b7ef0c4-5d3e-4b9a-8f0e-2c1d3e4f5a6b';
    const calls = stubCognito({
      RespondToAuthChallenge: (body) =>
        body.ChallengeName === 'MFA_SETUP'
          ? {
              body: {
                AuthenticationResult: {
                  ...TOKENS,
                  NewDeviceMetadata: { DeviceKey: DEVICE_KEY, DeviceGroupKey: '-group' },
                },
              },
            }
          : { body: { ChallengeName: 'MFA_SETUP', Session: 'setup-session', ChallengeParameters: {} } },
      ConfirmDevice: () => ({ body: { UserConfirmationNecessary: true } }),
    });
    await firstSignIn(service());
    const confirm = calls.find((call) => call.operation === 'ConfirmDevice');
    expect(confirm?.body).toMatchObject({ DeviceKey: DEVICE_KEY, AccessToken: TOKENS.AccessToken });
    expect(window.localStorage.getItem(`CognitoIdentityServiceProvider.${CLIENT_ID}.jane.deviceKey`)).toBe(DEVICE_KEY);
    expect(calls.at(-1)?.operation).toBe('SetUserMFAPreference');
  });

  it('keeps the user signed in when the preference cannot be set', async () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    stubCognito({
      SetUserMFAPreference: () => ({
        status: 400,
        body: { __type: 'NotAuthorizedException', message: 'Access Token has been revoked' },
      }),
    });
    const auth = service();
    await firstSignIn(auth);
    expect((await auth.currentSession())?.groups).toEqual(['Users']);
    expect(warn).toHaveBeenCalledWith(expect.stringContaining('preferred MFA method'), 'NotAuthorizedException');
  });

  it('sets no preference when the code is refused', async () => {
    const calls = stubCognito({
      VerifySoftwareToken: () => ({ status: 400, body: { __type: 'CodeMismatchException', message: 'Invalid code' } }),
    });
    const auth = service();
    expect(await auth.signIn('jane.doe@example.com', 'Secret#2026')).toEqual({
      step: 'CONTINUE_SIGN_IN_WITH_TOTP_SETUP',
    });
    const setup = auth.signInMfaSetup();
    await setup.associate();
    await expect(setup.verify('000000')).rejects.toMatchObject({ code: 'CodeMismatchException' });
    expect(calls.map((c) => c.operation)).not.toContain('SetUserMFAPreference');
  });
});

describe('refresh where the pool tracks devices', () => {
  const PREFIX = `CognitoIdentityServiceProvider.${CLIENT_ID}`;
  const DEVICE_KEY = 'us-east-2_6e3cb5cf-6c22-4110-97cc-fa43e3b13280';

  /** What the library keeps after a sign-in on a confirmed device; `expired` tokens need a refresh. */
  function storeSignedIn(expired = false) {
    const now = Math.floor(Date.now() / 1000);
    const times = expired ? { iat: now - 600, exp: now - 300 } : {};
    const items: Record<string, string> = {
      LastAuthUser: 'jane',
      'jane.accessToken': jwt({ token_use: 'access', username: 'jane', device_key: DEVICE_KEY, ...times }),
      'jane.idToken': jwt({ token_use: 'id', email: 'jane.doe@example.com', ...times }),
      'jane.refreshToken': 'refresh',
      'jane.clockDrift': '0',
      'jane.deviceKey': DEVICE_KEY,
      'jane.deviceGroupKey': '-group',
      'jane.randomPasswordKey': 'random',
    };
    for (const [key, value] of Object.entries(items)) window.localStorage.setItem(`${PREFIX}.${key}`, value);
  }

  const refused = { status: 400, body: { __type: 'NotAuthorizedException', message: 'Invalid Refresh Token' } };

  /**
   * The library retries a refused refresh with back-off (about 6 s in all) before it gives up;
   * the back-off runs on fake timers here.
   */
  async function settled<T>(promise: Promise<T>): Promise<unknown> {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    let outcome: { value: unknown } | undefined;
    promise.then(
      () => (outcome = { value: 'resolved' }),
      (error: unknown) => (outcome = { value: error }),
    );
    for (let step = 0; !outcome && step < 100; step += 1) {
      await new Promise((resolve) => setImmediate(resolve));
      await vi.advanceTimersByTimeAsync(1_000);
    }
    vi.useRealTimers();
    return outcome?.value;
  }

  it("sends this browser's device key with the refresh token", async () => {
    storeSignedIn();
    const calls = stubCognito({
      InitiateAuth: () => ({
        body: { AuthenticationResult: { AccessToken: TOKENS.AccessToken, IdToken: TOKENS.IdToken } },
      }),
    });
    expect((await service().refresh()).email).toBe('jane.doe@example.com');
    expect(calls).toEqual([
      {
        operation: 'InitiateAuth',
        body: expect.objectContaining({
          AuthFlow: 'REFRESH_TOKEN_AUTH',
          AuthParameters: { REFRESH_TOKEN: 'refresh', DEVICE_KEY: DEVICE_KEY },
        }),
      },
    ]);
  });

  it('reports a refusal of that device as the device being forgotten, on a refresh and at start-up', async () => {
    storeSignedIn();
    stubCognito({ InitiateAuth: () => refused });
    expect(await settled(service().refresh())).toMatchObject({
      code: 'DeviceForgotten',
      message: 'Invalid Refresh Token',
    });
    storeSignedIn(true);
    expect(await settled(service().currentSession())).toMatchObject({ code: 'DeviceForgotten' });
  });

  it('reports other refusals as they are', async () => {
    storeSignedIn();
    stubCognito({
      InitiateAuth: () => ({
        status: 400,
        body: { __type: 'NotAuthorizedException', message: 'Refresh Token has been revoked' },
      }),
    });
    expect(await settled(service().refresh())).toMatchObject({ code: 'NotAuthorizedException' });
    storeSignedIn(true);
    expect(await settled(service().currentSession())).toBe('resolved');
    expect(await service().currentSession()).toBeNull();
  });
});

describe('sign-in with a passkey (USER_AUTH)', () => {
  const OPTIONS = JSON.stringify({ challenge: 'Y2hhbGxlbmdl', rpId: 'localhost', userVerification: 'required' });
  const CREDENTIAL = { id: 'Y3JlZA', rawId: 'Y3JlZA', type: 'public-key', response: {}, clientExtensionResults: {} };
  const webAuthnChallenge = () => ({
    body: {
      ChallengeName: 'WEB_AUTHN',
      Session: 'passkey-session',
      ChallengeParameters: { USERNAME: 'jane', CREDENTIAL_REQUEST_OPTIONS: OPTIONS },
    },
  });

  it('asks for the WEB_AUTHN challenge, signs its options and ends with the tokens stored', async () => {
    window.localStorage.clear();
    const calls = stubCognito({
      InitiateAuth: webAuthnChallenge,
      RespondToAuthChallenge: () => ({ body: { AuthenticationResult: TOKENS } }),
    });
    const sign = vi.fn(async () => CREDENTIAL);
    const auth = service();
    const result = await passkeySignIn(auth, CLIENT_ID, 'jane.doe@example.com', undefined, sign);
    expect(result).toMatchObject({ step: 'DONE', session: { email: 'jane.doe@example.com' } });
    expect(sign).toHaveBeenCalledWith(OPTIONS);
    expect(calls[0]?.body).toMatchObject({
      AuthFlow: 'USER_AUTH',
      ClientId: CLIENT_ID,
      AuthParameters: { USERNAME: 'jane.doe@example.com', PREFERRED_CHALLENGE: 'WEB_AUTHN' },
    });
    expect(calls[1]?.body).toEqual({
      ChallengeName: 'WEB_AUTHN',
      ClientId: CLIENT_ID,
      Session: 'passkey-session',
      ChallengeResponses: { USERNAME: 'jane', CREDENTIAL: JSON.stringify(CREDENTIAL) },
    });
    expect((await auth.currentSession())?.username).toBe('jane');
  });

  it('records the passkey use with the new session token after a sign-in by the passkey alone', async () => {
    window.localStorage.clear();
    stubCognito({
      InitiateAuth: webAuthnChallenge,
      RespondToAuthChallenge: () => ({ body: { AuthenticationResult: TOKENS } }),
    });
    const MFA_URL = 'http://127.0.0.1:9404/';
    const cognitoFetch = globalThis.fetch;
    const recorded: unknown[] = [];
    vi.stubGlobal(
      'fetch',
      vi.fn(async (url: string, init: RequestInit) => {
        if (url !== MFA_URL) return cognitoFetch(url, init);
        recorded.push({ auth: new Headers(init.headers).get('authorization'), body: JSON.parse(String(init.body)) });
        return new Response(JSON.stringify({ message: 'Recorded' }), {
          status: 200,
          headers: { 'content-type': 'application/json' },
        });
      }),
    );
    await passkeySignIn(service(), CLIENT_ID, 'jane.doe@example.com', MFA_URL, async () => CREDENTIAL);
    await vi.waitFor(() =>
      expect(recorded).toEqual([
        { auth: `Bearer ${TOKENS.AccessToken}`, body: { action: 'PASSKEY_USED', credentialId: 'Y3JlZA' } },
      ]),
    );
  });

  it('goes on to the authenticator code when Cognito asks for it after the passkey', async () => {
    window.localStorage.clear();
    const calls = stubCognito({
      InitiateAuth: webAuthnChallenge,
      RespondToAuthChallenge: (body) =>
        body.ChallengeName === 'WEB_AUTHN'
          ? { body: { ChallengeName: 'SOFTWARE_TOKEN_MFA', Session: 'code-session', ChallengeParameters: {} } }
          : { body: { AuthenticationResult: TOKENS } },
    });
    const auth = service();
    const result = await passkeySignIn(auth, CLIENT_ID, 'jane.doe@example.com', undefined, async () => CREDENTIAL);
    expect(result).toEqual({ step: 'CONFIRM_SIGN_IN_WITH_TOTP_CODE' });
    expect((await auth.confirmTotpCode('123456')).step).toBe('DONE');
    expect(calls.at(-1)?.body).toMatchObject({
      ChallengeName: 'SOFTWARE_TOKEN_MFA',
      Session: 'code-session',
      ChallengeResponses: { USERNAME: 'jane', SOFTWARE_TOKEN_MFA_CODE: '123456' },
    });
  });

  it('says so, and asks the browser nothing, when Cognito offers no passkey for the account', async () => {
    window.localStorage.clear();
    stubCognito({
      InitiateAuth: () => ({
        body: { ChallengeName: 'SELECT_CHALLENGE', Session: 's', AvailableChallenges: ['PASSWORD', 'PASSWORD_SRP'] },
      }),
    });
    const sign = vi.fn(async () => CREDENTIAL);
    await expect(passkeySignIn(service(), CLIENT_ID, 'jane.doe@example.com', undefined, sign)).rejects.toMatchObject({
      code: 'NoPasskey',
    });
    expect(sign).not.toHaveBeenCalled();
  });

  it("keeps the browser's refusal as it is and answers nothing to Cognito", async () => {
    window.localStorage.clear();
    const calls = stubCognito({ InitiateAuth: webAuthnChallenge });
    const refusal = Object.assign(new Error('The passkey request was canceled.'), { name: 'PasskeyError' });
    await expect(
      passkeySignIn(service(), CLIENT_ID, 'jane.doe@example.com', undefined, async () => Promise.reject(refusal)),
    ).rejects.toBe(refusal);
    expect(calls.map((c) => c.operation)).toEqual(['InitiateAuth']);
  });
});

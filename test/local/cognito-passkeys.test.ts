import { createHmac } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  AdminDeleteSoftwareTokenCommand,
  AdminDeleteUserCommand,
  AdminGetUserCommand,
  AdminSetUserMFAPreferenceCommand,
  AssociateSoftwareTokenCommand,
  CompleteWebAuthnRegistrationCommand,
  DeleteWebAuthnCredentialCommand,
  GetUserAuthFactorsCommand,
  GetUserCommand,
  InitiateAuthCommand,
  ListWebAuthnCredentialsCommand,
  RespondToAuthChallengeCommand,
  SetUserMFAPreferenceCommand,
  StartWebAuthnRegistrationCommand,
  VerifySoftwareTokenCommand,
  type CognitoIdentityProviderClient,
} from '@aws-sdk/client-cognito-identity-provider';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { currentTotpCode } from '#clients/authenticator-code.ts';
import { createConfirmedAccount } from '#clients/cognito.ts';
import { USER_POOL_CLIENT } from '#contracts/user-pool-client.ts';
import type { AppClientSettings } from '#emulators/cognito/config.ts';
import {
  startCognitoEmulator,
  type CognitoEmulator,
  type CognitoEmulatorOptions,
  type WebAuthnSettings,
} from '#emulators/cognito/index.ts';
import { loadPool } from '#emulators/cognito/persistence.ts';
import {
  createAuthenticator,
  type AssertionOptions,
  type CeremonyOptions,
  type SoftwareAuthenticator,
} from '#test/support/webauthn-authenticator.ts';
import { adminClient } from './support/cognito-harness.ts';
import { AuthenticationHelper, BigInteger, DateHelper, type LibraryBigInteger } from './support/library-srp.ts';

/**
 * Passkeys in the local user pool (WebAuthnConfiguration, SignInPolicy.AllowedFirstAuthFactors):
 * registration, listing and deletion with the user's access token, choice-based sign-in (USER_AUTH)
 * with a passkey, a password or SRP, and when a passkey satisfies the pool's required MFA.
 */

const ORIGIN = 'http://localhost:5173';
const PASSWORD = 'Pass#Key1234';
const CLIENT: AppClientSettings = {
  ...USER_POOL_CLIENT,
  explicitAuthFlows: ['ALLOW_USER_SRP_AUTH', 'ALLOW_USER_AUTH', 'ALLOW_REFRESH_TOKEN_AUTH'],
};
type PoolOptions = Pick<CognitoEmulatorOptions, 'webAuthn' | 'allowedFirstAuthFactors' | 'webAuthnOrigins'> & {
  dataDir?: string;
  /** Suppresses aws.cognito.signin.user.admin in tokens from a refresh, as the portal's trigger does. */
  suppressScopeOnRefresh?: boolean;
};
const MULTI_FACTOR: WebAuthnSettings = {
  relyingPartyId: 'localhost',
  userVerification: 'preferred',
  factorConfiguration: 'MULTI_FACTOR_WITH_USER_VERIFICATION',
};
const DEFAULTS: PoolOptions = {
  webAuthn: MULTI_FACTOR,
  allowedFirstAuthFactors: ['PASSWORD', 'WEB_AUTHN'],
  webAuthnOrigins: [ORIGIN],
};

interface TestPool {
  readonly emulator: CognitoEmulator;
  readonly client: CognitoIdentityProviderClient;
  readonly dataDir: string;
  now(): number;
  advance(ms: number): void;
  restart(): Promise<void>;
  close(): Promise<void>;
}

const directories: string[] = [];
afterAll(async () => {
  await Promise.all(directories.splice(0).map((dir) => rm(dir, { recursive: true, force: true })));
});

function emulatorOptions(dataDir: string, options: PoolOptions, now: () => number): CognitoEmulatorOptions {
  const { dataDir: _dataDir, suppressScopeOnRefresh, ...passkeys } = options;
  return {
    dataDir,
    region: 'us-east-2',
    client: CLIENT,
    sendEmail: async () => undefined,
    now,
    ...passkeys,
    ...(suppressScopeOnRefresh
      ? {
          triggers: {
            preTokenGeneration: async (event) => {
              if (event.triggerSource !== 'TokenGeneration_RefreshTokens') return event;
              const scopesToSuppress = ['aws.cognito.signin.user.admin'];
              return {
                ...event,
                response: { claimsAndScopeOverrideDetails: { accessTokenGeneration: { scopesToSuppress } } },
              };
            },
          },
        }
      : {}),
  };
}

async function startPool(options: PoolOptions = DEFAULTS): Promise<TestPool> {
  const dataDir = options.dataDir ?? (await mkdtemp(join(tmpdir(), 'cognito-passkeys-')));
  directories.push(dataDir);
  let offset = 0;
  const now = () => Date.now() + offset;
  let emulator = await startCognitoEmulator(emulatorOptions(dataDir, options, now));
  let client = adminClient(emulator.url);
  return {
    get emulator() {
      return emulator;
    },
    get client() {
      return client;
    },
    dataDir,
    now,
    advance: (ms) => {
      offset += ms;
    },
    restart: async () => {
      await emulator.close();
      emulator = await startCognitoEmulator(emulatorOptions(dataDir, options, now));
      client = adminClient(emulator.url);
    },
    close: () => emulator.close(),
  };
}

const initiate = (pool: TestPool, parameters: Record<string, string>) =>
  pool.client.send(
    new InitiateAuthCommand({ AuthFlow: 'USER_AUTH', ClientId: pool.emulator.clientId, AuthParameters: parameters }),
  );

const respond = (pool: TestPool, name: string, session: string | undefined, responses: Record<string, string>) =>
  pool.client.send(
    new RespondToAuthChallengeCommand({
      ClientId: pool.emulator.clientId,
      ChallengeName: name as 'WEB_AUTHN',
      Session: session,
      ChallengeResponses: responses,
    }),
  );

interface Account {
  email: string;
  username: string;
  secret: string;
  accessToken: string;
  refreshToken: string;
}

/**
 * A confirmed account through its first sign-in (USER_AUTH with its password, then MFA_SETUP),
 * with TOTP then enabled and preferred as the portal does; the clock moves to the next TOTP step.
 */
async function enrol(pool: TestPool, label: string): Promise<Account> {
  const email = `${label}@example.com`;
  const username = await createConfirmedAccount(pool.client, pool.emulator.userPoolId, {
    email,
    password: PASSWORD,
    groups: [],
  });
  const first = await initiate(pool, { USERNAME: email, PREFERRED_CHALLENGE: 'PASSWORD', PASSWORD });
  expect(first.ChallengeName).toBe('MFA_SETUP');
  const associated = await pool.client.send(new AssociateSoftwareTokenCommand({ Session: first.Session }));
  const secret = associated.SecretCode!;
  const verified = await pool.client.send(
    new VerifySoftwareTokenCommand({ Session: associated.Session, UserCode: currentTotpCode(secret, pool.now()) }),
  );
  const done = await respond(pool, 'MFA_SETUP', verified.Session, { USERNAME: email });
  const accessToken = done.AuthenticationResult!.AccessToken!;
  await pool.client.send(
    new SetUserMFAPreferenceCommand({
      AccessToken: accessToken,
      SoftwareTokenMfaSettings: { Enabled: true, PreferredMfa: true },
    }),
  );
  pool.advance(30_000);
  return { email, username, secret, accessToken, refreshToken: done.AuthenticationResult!.RefreshToken! };
}

/** StartWebAuthnRegistration's CredentialCreationOptions. */
const startRegistration = async (pool: TestPool, accessToken: string) =>
  (await pool.client.send(new StartWebAuthnRegistrationCommand({ AccessToken: accessToken })))
    .CredentialCreationOptions as Record<string, unknown>;

const completeRegistration = (pool: TestPool, accessToken: string, credential: object) =>
  pool.client.send(
    new CompleteWebAuthnRegistrationCommand({
      AccessToken: accessToken,
      Credential: credential as unknown as Record<string, never>,
    }),
  );

/** Start, the authenticator's response, complete. */
async function registerPasskey(
  pool: TestPool,
  accessToken: string,
  authenticator: SoftwareAuthenticator,
  ceremony: Partial<CeremonyOptions> = {},
) {
  const options = await startRegistration(pool, accessToken);
  await completeRegistration(pool, accessToken, authenticator.register(options, { origin: ORIGIN, ...ceremony }));
}

const listPasskeys = async (pool: TestPool, accessToken: string) =>
  (await pool.client.send(new ListWebAuthnCredentialsCommand({ AccessToken: accessToken }))).Credentials ?? [];

/** USER_AUTH with PREFERRED_CHALLENGE WEB_AUTHN: the WEB_AUTHN challenge's session and request options. */
async function passkeyChallenge(pool: TestPool, email: string) {
  const started = await initiate(pool, { USERNAME: email, PREFERRED_CHALLENGE: 'WEB_AUTHN' });
  expect(started.ChallengeName).toBe('WEB_AUTHN');
  const options = JSON.parse(started.ChallengeParameters!.CREDENTIAL_REQUEST_OPTIONS!) as {
    challenge: string;
    rpId: string;
    userVerification: string;
    allowCredentials: { id: string; type: string }[];
    timeout: number;
  };
  return { session: started.Session!, options };
}

/** A passkey sign-in answered by the authenticator. */
async function signInWithPasskey(
  pool: TestPool,
  email: string,
  authenticator: SoftwareAuthenticator,
  ceremony: Partial<AssertionOptions> = {},
) {
  const { session, options } = await passkeyChallenge(pool, email);
  const assertion = authenticator.authenticate(options, { origin: ORIGIN, ...ceremony });
  return respond(pool, 'WEB_AUTHN', session, { USERNAME: email, CREDENTIAL: JSON.stringify(assertion) });
}

const enablePasskeyMfa = (pool: TestPool, accessToken: string, enabled = true) =>
  pool.client.send(
    new SetUserMFAPreferenceCommand({ AccessToken: accessToken, WebAuthnMfaSettings: { Enabled: enabled } }),
  );

let pool: TestPool;
beforeAll(async () => {
  pool = await startPool();
});
afterAll(() => pool.close());

describe('start-up: the pool configurations AWS refuses', () => {
  const dataDir = () => mkdtemp(join(tmpdir(), 'cognito-passkeys-refused-'));
  const start = async (options: PoolOptions) => {
    const dir = await dataDir();
    directories.push(dir);
    return startCognitoEmulator(emulatorOptions(dir, options, Date.now));
  };

  it('refuses WEB_AUTHN as a first factor with SINGLE_FACTOR passkeys in a pool that requires MFA', async () => {
    await expect(
      start({ ...DEFAULTS, webAuthn: { ...MULTI_FACTOR, factorConfiguration: 'SINGLE_FACTOR' } }),
    ).rejects.toThrow(
      'Cannot set WebAuthn factor configuration to SINGLE_FACTOR if MFA is required and WebAuthn is an allowed first auth factor',
    );
  });

  it('refuses WEB_AUTHN as a first factor without a relying party, and malformed relying party IDs or origins', async () => {
    await expect(start({ allowedFirstAuthFactors: ['PASSWORD', 'WEB_AUTHN'] })).rejects.toThrow(/no webAuthn settings/);
    for (const relyingPartyId of ['https://localhost', 'localhost:5173', 'Example.com', '127.0.0.1', '']) {
      await expect(start({ ...DEFAULTS, webAuthn: { ...MULTI_FACTOR, relyingPartyId } })).rejects.toThrow(
        /relyingPartyId must be a domain name/,
      );
    }
    await expect(start({ ...DEFAULTS, webAuthnOrigins: ['https://portal.example.com'] })).rejects.toThrow(
      /does not align with the relying party ID localhost/,
    );
    await expect(start({ ...DEFAULTS, allowedFirstAuthFactors: ['PASSWORD', 'SMS_OTP'] })).rejects.toThrow(
      /does not implement SMS_OTP/,
    );
  });
});

describe('passkey registration (StartWebAuthnRegistration, CompleteWebAuthnRegistration)', () => {
  it('answers creation options shaped as Cognito documents them, excluding the passkeys already registered', async () => {
    const account = await enrol(pool, 'options');
    const options = await startRegistration(pool, account.accessToken);
    expect(options).toEqual({
      authenticatorSelection: { requireResidentKey: true, residentKey: 'required', userVerification: 'preferred' },
      challenge: expect.stringMatching(/^[A-Za-z0-9_-]{43}$/),
      excludeCredentials: [],
      pubKeyCredParams: [
        { alg: -7, type: 'public-key' },
        { alg: -257, type: 'public-key' },
      ],
      rp: { id: 'localhost', name: 'localhost' },
      timeout: 60000,
      user: {
        displayName: account.email,
        id: Buffer.from(account.username).toString('base64url'),
        name: account.email,
      },
    });
    const authenticator = createAuthenticator();
    await completeRegistration(pool, account.accessToken, authenticator.register(options, { origin: ORIGIN }));
    const again = await startRegistration(pool, account.accessToken);
    expect(again.excludeCredentials).toEqual([{ id: authenticator.credentialId, type: 'public-key' }]);
  });

  it('registers ES256 and RS256 passkeys and lists them with their generated names', async () => {
    const account = await enrol(pool, 'two-algorithms');
    const es256 = createAuthenticator({ algorithm: 'ES256' });
    const rs256 = createAuthenticator({ algorithm: 'RS256', attachment: 'cross-platform' });
    const before = pool.now();
    await registerPasskey(pool, account.accessToken, es256);
    await registerPasskey(pool, account.accessToken, rs256);
    const listed = await listPasskeys(pool, account.accessToken);
    expect(listed.map(({ CreatedAt: _createdAt, ...rest }) => rest)).toEqual([
      {
        CredentialId: es256.credentialId,
        FriendlyCredentialName: 'Passkey',
        RelyingPartyId: 'localhost',
        AuthenticatorAttachment: 'platform',
        AuthenticatorTransports: ['internal'],
      },
      {
        CredentialId: rs256.credentialId,
        FriendlyCredentialName: 'Roaming passkey',
        RelyingPartyId: 'localhost',
        AuthenticatorAttachment: 'cross-platform',
        AuthenticatorTransports: ['usb'],
      },
    ]);
    expect(listed[0]!.CreatedAt!.getTime()).toBeGreaterThanOrEqual(before - 1000);
    const page = await pool.client.send(
      new ListWebAuthnCredentialsCommand({ AccessToken: account.accessToken, MaxResults: 1 }),
    );
    expect(page.Credentials?.map((credential) => credential.CredentialId)).toEqual([es256.credentialId]);
    const rest = await pool.client.send(
      new ListWebAuthnCredentialsCommand({
        AccessToken: account.accessToken,
        MaxResults: 1,
        NextToken: page.NextToken,
      }),
    );
    expect(rest.Credentials?.map((credential) => credential.CredentialId)).toEqual([rs256.credentialId]);
    expect(rest.NextToken).toBeUndefined();
  });

  it('spends the challenge once, lets it expire, and refuses a completion without a start', async () => {
    const account = await enrol(pool, 'challenge-once');
    const authenticator = createAuthenticator();
    await expect(
      completeRegistration(
        pool,
        account.accessToken,
        authenticator.register(
          { challenge: 'AAAA', rp: { id: 'localhost', name: 'x' }, user: { id: 'eA', name: 'x', displayName: 'x' } },
          { origin: ORIGIN },
        ),
      ),
    ).rejects.toMatchObject({ name: 'WebAuthnChallengeNotFoundException' });
    const options = await startRegistration(pool, account.accessToken);
    const response = authenticator.register(options, { origin: ORIGIN });
    await completeRegistration(pool, account.accessToken, response);
    await expect(completeRegistration(pool, account.accessToken, response)).rejects.toMatchObject({
      name: 'WebAuthnChallengeNotFoundException',
    });
    const later = createAuthenticator();
    const expiring = await startRegistration(pool, account.accessToken);
    pool.advance(61_000);
    await expect(
      completeRegistration(pool, account.accessToken, later.register(expiring, { origin: ORIGIN })),
    ).rejects.toMatchObject({ name: 'WebAuthnChallengeNotFoundException' });
    // A response to an older challenge than the pending one answers no challenge of the user.
    const stale = await startRegistration(pool, account.accessToken);
    await startRegistration(pool, account.accessToken);
    await expect(
      completeRegistration(pool, account.accessToken, later.register(stale, { origin: ORIGIN })),
    ).rejects.toMatchObject({ name: 'WebAuthnChallengeNotFoundException' });
    expect(await listPasskeys(pool, account.accessToken)).toHaveLength(1);
  });

  it('refuses an origin outside the allowed ones and a credential of another relying party', async () => {
    const account = await enrol(pool, 'origin-rp');
    for (const origin of ['http://localhost:9999', 'https://evil.example.com', 'http://127.0.0.1:5173']) {
      const options = await startRegistration(pool, account.accessToken);
      await expect(
        completeRegistration(pool, account.accessToken, createAuthenticator().register(options, { origin })),
      ).rejects.toMatchObject({ name: 'WebAuthnOriginNotAllowedException' });
    }
    const options = await startRegistration(pool, account.accessToken);
    await expect(
      completeRegistration(
        pool,
        account.accessToken,
        createAuthenticator().register(options, { origin: ORIGIN, rpId: 'example.com' }),
      ),
    ).rejects.toMatchObject({ name: 'WebAuthnRelyingPartyMismatchException' });
    expect(await listPasskeys(pool, account.accessToken)).toEqual([]);
  });

  it('refuses a credential ID registered already, a malformed credential, and a token without the admin scope', async () => {
    const scoped = await startPool({ ...DEFAULTS, suppressScopeOnRefresh: true });
    try {
      const first = await enrol(scoped, 'first-owner');
      const second = await enrol(scoped, 'second-owner');
      const authenticator = createAuthenticator();
      await registerPasskey(scoped, first.accessToken, authenticator);
      for (const account of [first, second]) {
        const options = await startRegistration(scoped, account.accessToken);
        await expect(
          completeRegistration(scoped, account.accessToken, authenticator.register(options, { origin: ORIGIN })),
        ).rejects.toMatchObject({ name: 'InvalidParameterException' });
      }
      await startRegistration(scoped, second.accessToken);
      await expect(
        completeRegistration(scoped, second.accessToken, { id: 'abc', rawId: 'abc', type: 'public-key', response: {} }),
      ).rejects.toMatchObject({ name: 'InvalidParameterException' });
      const refreshed = await scoped.client.send(
        new InitiateAuthCommand({
          AuthFlow: 'REFRESH_TOKEN_AUTH',
          ClientId: scoped.emulator.clientId,
          AuthParameters: { REFRESH_TOKEN: first.refreshToken },
        }),
      );
      await expect(startRegistration(scoped, refreshed.AuthenticationResult!.AccessToken!)).rejects.toMatchObject({
        name: 'NotAuthorizedException',
        message: 'Access Token does not have required scopes',
      });
      expect((await listPasskeys(scoped, second.accessToken)).length).toBe(0);
    } finally {
      await scoped.close();
    }
  });

  it('refuses an authenticator without user verification where the pool requires it', async () => {
    const strict = await startPool({ ...DEFAULTS, webAuthn: { ...MULTI_FACTOR, userVerification: 'required' } });
    try {
      const account = await enrol(strict, 'uv-required');
      const options = await startRegistration(strict, account.accessToken);
      expect(options.authenticatorSelection).toMatchObject({ userVerification: 'required' });
      await expect(
        completeRegistration(
          strict,
          account.accessToken,
          createAuthenticator().register(options, { origin: ORIGIN, userVerified: false }),
        ),
      ).rejects.toMatchObject({ name: 'WebAuthnCredentialNotSupportedException' });
      await registerPasskey(strict, account.accessToken, createAuthenticator());
      expect(await listPasskeys(strict, account.accessToken)).toHaveLength(1);
    } finally {
      await strict.close();
    }
  });

  it('refuses passkey registration where WEB_AUTHN is not an allowed first factor', async () => {
    const off = await startPool({ webAuthn: MULTI_FACTOR });
    try {
      const account = await enrol(off, 'not-enabled');
      await expect(startRegistration(off, account.accessToken)).rejects.toMatchObject({
        name: 'WebAuthnNotEnabledException',
      });
      expect(await listPasskeys(off, account.accessToken)).toEqual([]);
    } finally {
      await off.close();
    }
  });

  // https://docs.aws.amazon.com/cognito-user-identity-pools/latest/APIReference/API_CompleteWebAuthnRegistration.html
  // (Errors: LimitExceededException). The page gives no number: 20 is local mode's (one ListWebAuthnCredentials page).
  it('holds a user to 20 passkeys (LimitExceededException)', async () => {
    const account = await enrol(pool, 'twenty');
    for (let index = 0; index < 20; index += 1) await registerPasskey(pool, account.accessToken, createAuthenticator());
    await expect(startRegistration(pool, account.accessToken)).rejects.toMatchObject({
      name: 'LimitExceededException',
    });
    expect(await listPasskeys(pool, account.accessToken)).toHaveLength(20);
  });
});

describe('DeleteWebAuthnCredential', () => {
  it('deletes the caller’s passkey and refuses an unknown ID or another user’s (ResourceNotFoundException)', async () => {
    const owner = await enrol(pool, 'delete-owner');
    const other = await enrol(pool, 'delete-other');
    const authenticator = createAuthenticator();
    await registerPasskey(pool, owner.accessToken, authenticator);
    for (const [accessToken, credentialId] of [
      [owner.accessToken, 'bm90LWEtcGFzc2tleQ'],
      [other.accessToken, authenticator.credentialId],
    ] as const) {
      await expect(
        pool.client.send(new DeleteWebAuthnCredentialCommand({ AccessToken: accessToken, CredentialId: credentialId })),
      ).rejects.toMatchObject({ name: 'ResourceNotFoundException' });
    }
    expect(await listPasskeys(pool, owner.accessToken)).toHaveLength(1);
    await pool.client.send(
      new DeleteWebAuthnCredentialCommand({ AccessToken: owner.accessToken, CredentialId: authenticator.credentialId }),
    );
    expect(await listPasskeys(pool, owner.accessToken)).toEqual([]);
    // The deleted passkey no longer signs in: WEB_AUTHN is no longer offered.
    const started = await initiate(pool, { USERNAME: owner.email, PREFERRED_CHALLENGE: 'WEB_AUTHN' });
    expect(started.ChallengeName).toBe('SELECT_CHALLENGE');
    expect(started.AvailableChallenges).toEqual(['PASSWORD', 'PASSWORD_SRP']);
  });

  it('refuses an assertion of a deleted passkey while the user has another', async () => {
    const account = await enrol(pool, 'delete-one-of-two');
    const kept = createAuthenticator();
    const deleted = createAuthenticator();
    await registerPasskey(pool, account.accessToken, kept);
    await registerPasskey(pool, account.accessToken, deleted);
    await pool.client.send(
      new DeleteWebAuthnCredentialCommand({ AccessToken: account.accessToken, CredentialId: deleted.credentialId }),
    );
    const { session, options } = await passkeyChallenge(pool, account.email);
    expect(options.allowCredentials.map((credential) => credential.id)).toEqual([kept.credentialId]);
    const assertion = deleted.authenticate(options, { origin: ORIGIN, ignoreAllowCredentials: true });
    await expect(
      respond(pool, 'WEB_AUTHN', session, { USERNAME: account.email, CREDENTIAL: JSON.stringify(assertion) }),
    ).rejects.toMatchObject({ name: 'NotAuthorizedException' });
  });
});

describe('choice-based sign-in (USER_AUTH)', () => {
  it('offers SELECT_CHALLENGE with the factors the pool allows and the user has', async () => {
    const account = await enrol(pool, 'select');
    const withoutPasskey = await initiate(pool, { USERNAME: account.email });
    expect(withoutPasskey).toMatchObject({
      ChallengeName: 'SELECT_CHALLENGE',
      AvailableChallenges: ['PASSWORD', 'PASSWORD_SRP'],
    });
    expect(withoutPasskey.Session).toBeDefined();
    // An account that does not exist is answered alike (PreventUserExistenceErrors is on).
    const nobody = await initiate(pool, { USERNAME: 'nobody@example.com', PREFERRED_CHALLENGE: 'WEB_AUTHN' });
    expect(nobody.ChallengeName).toBe('SELECT_CHALLENGE');
    expect(nobody.AvailableChallenges).toEqual(['PASSWORD', 'PASSWORD_SRP']);
    await expect(
      respond(pool, 'SELECT_CHALLENGE', nobody.Session, {
        USERNAME: 'nobody@example.com',
        ANSWER: 'PASSWORD',
        PASSWORD,
      }),
    ).rejects.toMatchObject({ name: 'NotAuthorizedException', message: 'Incorrect username or password.' });
    await registerPasskey(pool, account.accessToken, createAuthenticator());
    const withPasskey = await initiate(pool, { USERNAME: account.email });
    expect(withPasskey.AvailableChallenges).toEqual(['WEB_AUTHN', 'PASSWORD', 'PASSWORD_SRP']);
    await expect(
      respond(pool, 'SELECT_CHALLENGE', withPasskey.Session, { USERNAME: account.email, ANSWER: 'EMAIL_OTP' }),
    ).rejects.toMatchObject({ name: 'InvalidParameterException' });
    await expect(
      initiate(pool, { USERNAME: account.email, PREFERRED_CHALLENGE: 'NOT_A_FACTOR' }),
    ).rejects.toMatchObject({
      name: 'InvalidParameterException',
    });
  });

  it('answers SELECT_CHALLENGE with PASSWORD and goes on to the authenticator’s code', async () => {
    const account = await enrol(pool, 'select-password');
    const select = await initiate(pool, { USERNAME: account.email });
    const wrong = await initiate(pool, { USERNAME: account.email });
    await expect(
      respond(pool, 'SELECT_CHALLENGE', wrong.Session, {
        USERNAME: account.email,
        ANSWER: 'PASSWORD',
        PASSWORD: 'Wrong#Pass123',
      }),
    ).rejects.toMatchObject({ name: 'NotAuthorizedException', message: 'Incorrect username or password.' });
    const mfa = await respond(pool, 'SELECT_CHALLENGE', select.Session, {
      USERNAME: account.email,
      ANSWER: 'PASSWORD',
      PASSWORD,
    });
    expect(mfa.ChallengeName).toBe('SOFTWARE_TOKEN_MFA');
    const done = await respond(pool, 'SOFTWARE_TOKEN_MFA', mfa.Session, {
      USERNAME: account.email,
      SOFTWARE_TOKEN_MFA_CODE: currentTotpCode(account.secret, pool.now()),
    });
    expect(done.AuthenticationResult?.AccessToken).toBeDefined();
    // The SELECT_CHALLENGE session was spent by its answer.
    await expect(
      respond(pool, 'SELECT_CHALLENGE', select.Session, { USERNAME: account.email, ANSWER: 'PASSWORD', PASSWORD }),
    ).rejects.toMatchObject({ name: 'NotAuthorizedException', message: 'Invalid session for the user.' });
  });

  it('answers SELECT_CHALLENGE with PASSWORD_SRP, then PASSWORD_VERIFIER as the SRP sign-in does', async () => {
    const account = await enrol(pool, 'select-srp');
    const select = await initiate(pool, { USERNAME: account.email });
    const srp = await srpClient(pool.emulator.userPoolId.split('_')[1]!);
    const verifier = await respond(pool, 'SELECT_CHALLENGE', select.Session, {
      USERNAME: account.email,
      ANSWER: 'PASSWORD_SRP',
      SRP_A: srp.A,
    });
    expect(verifier.ChallengeName).toBe('PASSWORD_VERIFIER');
    const parameters = verifier.ChallengeParameters!;
    expect(parameters.USER_ID_FOR_SRP).toBe(account.username);
    const mfa = await respond(pool, 'PASSWORD_VERIFIER', verifier.Session, {
      USERNAME: account.username,
      ...(await srp.proof(parameters, PASSWORD)),
    });
    expect(mfa.ChallengeName).toBe('SOFTWARE_TOKEN_MFA');
  });

  it('signs in with a passkey as a first factor, then asks for the code when passkey MFA is off', async () => {
    const account = await enrol(pool, 'first-factor');
    const authenticator = createAuthenticator();
    await registerPasskey(pool, account.accessToken, authenticator);
    const { options } = await passkeyChallenge(pool, account.email);
    expect(options).toEqual({
      challenge: expect.stringMatching(/^[A-Za-z0-9_-]{43}$/),
      timeout: 180000,
      rpId: 'localhost',
      allowCredentials: [{ id: authenticator.credentialId, type: 'public-key', transports: ['internal'] }],
      userVerification: 'preferred',
    });
    const mfa = await signInWithPasskey(pool, account.email, authenticator);
    expect(mfa.ChallengeName).toBe('SOFTWARE_TOKEN_MFA');
    expect(mfa.AuthenticationResult).toBeUndefined();
    const done = await respond(pool, 'SOFTWARE_TOKEN_MFA', mfa.Session, {
      USERNAME: account.email,
      SOFTWARE_TOKEN_MFA_CODE: currentTotpCode(account.secret, pool.now()),
    });
    expect(done.AuthenticationResult?.IdToken).toBeDefined();
  });

  it('issues tokens without a code for a verified user when passkey MFA is on, and asks for the code otherwise', async () => {
    const account = await enrol(pool, 'passkey-mfa');
    const authenticator = createAuthenticator();
    await registerPasskey(pool, account.accessToken, authenticator);
    await enablePasskeyMfa(pool, account.accessToken);
    const { options } = await passkeyChallenge(pool, account.email);
    // A user with passkey MFA must verify: the options require it.
    expect(options.userVerification).toBe('required');
    const done = await signInWithPasskey(pool, account.email, authenticator);
    expect(done.ChallengeName).toBeUndefined();
    expect(done.AuthenticationResult?.AccessToken).toBeDefined();
    // An assertion without user verification never stands in for MFA: it is refused.
    await expect(signInWithPasskey(pool, account.email, authenticator, { userVerified: false })).rejects.toMatchObject({
      name: 'NotAuthorizedException',
    });
    await enablePasskeyMfa(pool, account.accessToken, false);
    const unverified = await signInWithPasskey(pool, account.email, authenticator, { userVerified: false });
    expect(unverified.ChallengeName).toBe('SOFTWARE_TOKEN_MFA');
    const verified = await signInWithPasskey(pool, account.email, authenticator);
    expect(verified.ChallengeName).toBe('SOFTWARE_TOKEN_MFA');
  });

  it('refuses a passkey without user verification outright where the pool requires it', async () => {
    const strict = await startPool({ ...DEFAULTS, webAuthn: { ...MULTI_FACTOR, userVerification: 'required' } });
    try {
      const account = await enrol(strict, 'strict-sign-in');
      const authenticator = createAuthenticator();
      await registerPasskey(strict, account.accessToken, authenticator);
      await expect(
        signInWithPasskey(strict, account.email, authenticator, { userVerified: false }),
      ).rejects.toMatchObject({ name: 'NotAuthorizedException' });
      const verified = await signInWithPasskey(strict, account.email, authenticator);
      // Passkey MFA is off for this user: the code is still asked for.
      expect(verified.ChallengeName).toBe('SOFTWARE_TOKEN_MFA');
    } finally {
      await strict.close();
    }
  });

  it('spends the challenge once: a replayed assertion, an older counter or another session’s challenge is refused', async () => {
    const account = await enrol(pool, 'replay');
    const authenticator = createAuthenticator();
    await registerPasskey(pool, account.accessToken, authenticator);
    await enablePasskeyMfa(pool, account.accessToken);
    const { session, options } = await passkeyChallenge(pool, account.email);
    const credential = JSON.stringify(authenticator.authenticate(options, { origin: ORIGIN }));
    await respond(pool, 'WEB_AUTHN', session, { USERNAME: account.email, CREDENTIAL: credential });
    await expect(
      respond(pool, 'WEB_AUTHN', session, { USERNAME: account.email, CREDENTIAL: credential }),
    ).rejects.toMatchObject({ name: 'NotAuthorizedException', message: 'Invalid session for the user.' });
    const fresh = await passkeyChallenge(pool, account.email);
    await expect(
      respond(pool, 'WEB_AUTHN', fresh.session, { USERNAME: account.email, CREDENTIAL: credential }),
    ).rejects.toMatchObject({ name: 'NotAuthorizedException', message: 'Incorrect username or password.' });
    await expect(
      signInWithPasskey(pool, account.email, authenticator, { counter: authenticator.counter }),
    ).rejects.toMatchObject({ name: 'NotAuthorizedException' });
    expect((await signInWithPasskey(pool, account.email, authenticator)).AuthenticationResult).toBeDefined();
  });

  it('refuses an assertion from another origin or for another relying party', async () => {
    const account = await enrol(pool, 'assertion-origin');
    const authenticator = createAuthenticator();
    await registerPasskey(pool, account.accessToken, authenticator);
    for (const ceremony of [
      { origin: 'http://localhost:4000' },
      { origin: 'https://evil.example.com' },
      { rpId: 'example.com' },
    ]) {
      await expect(signInWithPasskey(pool, account.email, authenticator, ceremony)).rejects.toMatchObject({
        name: 'NotAuthorizedException',
      });
    }
    expect((await signInWithPasskey(pool, account.email, authenticator)).ChallengeName).toBe('SOFTWARE_TOKEN_MFA');
  });
});

describe('passkey MFA preference (WebAuthnMfaSettings) and the user’s factors', () => {
  it('reports the factors in GetUserAuthFactors, GetUser and AdminGetUser', async () => {
    const account = await enrol(pool, 'factors');
    const factors = () => pool.client.send(new GetUserAuthFactorsCommand({ AccessToken: account.accessToken }));
    expect(await factors()).toMatchObject({
      Username: account.username,
      ConfiguredUserAuthFactors: ['PASSWORD', 'SOFTWARE_TOKEN'],
      UserMFASettingList: ['SOFTWARE_TOKEN_MFA'],
      PreferredMfaSetting: 'SOFTWARE_TOKEN_MFA',
    });
    await registerPasskey(pool, account.accessToken, createAuthenticator());
    await enablePasskeyMfa(pool, account.accessToken);
    expect(await factors()).toMatchObject({
      ConfiguredUserAuthFactors: ['PASSWORD', 'WEB_AUTHN', 'SOFTWARE_TOKEN'],
      UserMFASettingList: ['SOFTWARE_TOKEN_MFA', 'WEB_AUTHN'],
      PreferredMfaSetting: 'SOFTWARE_TOKEN_MFA',
    });
    const me = await pool.client.send(new GetUserCommand({ AccessToken: account.accessToken }));
    expect(me.UserMFASettingList).toEqual(['SOFTWARE_TOKEN_MFA', 'WEB_AUTHN']);
    const admin = await pool.client.send(
      new AdminGetUserCommand({ UserPoolId: pool.emulator.userPoolId, Username: account.email }),
    );
    expect(admin.UserMFASettingList).toEqual(['SOFTWARE_TOKEN_MFA', 'WEB_AUTHN']);
  });

  it('needs MULTI_FACTOR_WITH_USER_VERIFICATION in the pool and another MFA method active', async () => {
    const single = await startPool({ webAuthn: { ...MULTI_FACTOR, factorConfiguration: 'SINGLE_FACTOR' } });
    try {
      const account = await enrol(single, 'single-factor');
      await expect(enablePasskeyMfa(single, account.accessToken)).rejects.toMatchObject({
        name: 'InvalidParameterException',
      });
    } finally {
      await single.close();
    }
    const account = await enrol(pool, 'needs-totp');
    await pool.client.send(
      new SetUserMFAPreferenceCommand({
        AccessToken: account.accessToken,
        SoftwareTokenMfaSettings: { Enabled: false, PreferredMfa: false },
      }),
    );
    await expect(enablePasskeyMfa(pool, account.accessToken)).rejects.toMatchObject({
      name: 'InvalidParameterException',
    });
    await pool.client.send(
      new AdminSetUserMFAPreferenceCommand({
        UserPoolId: pool.emulator.userPoolId,
        Username: account.email,
        SoftwareTokenMfaSettings: { Enabled: true },
        WebAuthnMfaSettings: { Enabled: true },
      }),
    );
    // TOTP cannot be turned off while passkey MFA relies on it.
    await expect(
      pool.client.send(
        new SetUserMFAPreferenceCommand({
          AccessToken: account.accessToken,
          SoftwareTokenMfaSettings: { Enabled: false },
        }),
      ),
    ).rejects.toMatchObject({ name: 'InvalidParameterException' });
    const me = await pool.client.send(new GetUserCommand({ AccessToken: account.accessToken }));
    expect(me.UserMFASettingList).toEqual(['SOFTWARE_TOKEN_MFA', 'WEB_AUTHN']);
  });

  it('turns passkey MFA off with the software token: the next passkey sign-in sets up an authenticator', async () => {
    const account = await enrol(pool, 'lost-authenticator');
    const authenticator = createAuthenticator();
    await registerPasskey(pool, account.accessToken, authenticator);
    await enablePasskeyMfa(pool, account.accessToken);
    await pool.client.send(
      new AdminDeleteSoftwareTokenCommand({ UserPoolId: pool.emulator.userPoolId, Username: account.email }),
    );
    const admin = await pool.client.send(
      new AdminGetUserCommand({ UserPoolId: pool.emulator.userPoolId, Username: account.email }),
    );
    expect(admin.UserMFASettingList).toBeUndefined();
    expect((await signInWithPasskey(pool, account.email, authenticator)).ChallengeName).toBe('MFA_SETUP');
  });
});

describe('passkeys kept with the pool', () => {
  const temporary: TestPool[] = [];
  afterEach(async () => {
    await Promise.all(temporary.splice(0).map((each) => each.close()));
  });

  it('keeps passkeys, their counters and passkey MFA across a restart, and removes them with the user', async () => {
    const durable = await startPool();
    temporary.push(durable);
    const account = await enrol(durable, 'durable');
    const authenticator = createAuthenticator({ algorithm: 'RS256' });
    await registerPasskey(durable, account.accessToken, authenticator);
    await enablePasskeyMfa(durable, account.accessToken);
    const first = await signInWithPasskey(durable, account.email, authenticator);
    await durable.restart();
    const listed = await listPasskeys(durable, first.AuthenticationResult!.AccessToken!);
    expect(listed.map((credential) => credential.CredentialId)).toEqual([authenticator.credentialId]);
    // The counter survived: the count the last sign-in reported is refused.
    await expect(
      signInWithPasskey(durable, account.email, authenticator, { counter: authenticator.counter }),
    ).rejects.toMatchObject({ name: 'NotAuthorizedException' });
    expect((await signInWithPasskey(durable, account.email, authenticator)).AuthenticationResult).toBeDefined();
    await durable.client.send(
      new AdminDeleteUserCommand({ UserPoolId: durable.emulator.userPoolId, Username: account.email }),
    );
    await durable.restart();
    const saved = await loadPool(durable.dataDir);
    expect(saved?.users.some((user) => user.passkeys?.length)).toBe(false);
    // A new account may register the deleted user's passkey again.
    const next = await enrol(durable, 'durable-next');
    await registerPasskey(durable, next.accessToken, authenticator);
    expect(await listPasskeys(durable, next.accessToken)).toHaveLength(1);
  });
});

async function srpClient(poolName: string) {
  const helper = new AuthenticationHelper(poolName);
  const A = await new Promise<LibraryBigInteger>((resolve) => helper.getLargeAValue((_error, value) => resolve(value)));
  return {
    A: A.toString(16),
    /** PASSWORD_VERIFIER's answer to its ChallengeParameters. */
    async proof(parameters: Record<string, string>, password: string) {
      const userId = parameters.USER_ID_FOR_SRP!;
      const key = await new Promise<Buffer>((resolve) =>
        helper.getPasswordAuthenticationKey(
          userId,
          password,
          new BigInteger(parameters.SRP_B!, 16),
          new BigInteger(parameters.SALT!, 16),
          (_error, value) => resolve(value),
        ),
      );
      const timestamp = new DateHelper().getNowString();
      const signature = createHmac('sha256', key)
        .update(
          Buffer.concat([
            Buffer.from(poolName),
            Buffer.from(userId),
            Buffer.from(parameters.SECRET_BLOCK!, 'base64'),
            Buffer.from(timestamp),
          ]),
        )
        .digest('base64');
      return {
        PASSWORD_CLAIM_SECRET_BLOCK: parameters.SECRET_BLOCK!,
        PASSWORD_CLAIM_SIGNATURE: signature,
        TIMESTAMP: timestamp,
      };
    },
  };
}

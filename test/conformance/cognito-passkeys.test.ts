import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  CognitoIdentityProviderClient,
  CompleteWebAuthnRegistrationCommand,
  CreateUserPoolClientCommand,
  CreateUserPoolCommand,
  DeleteUserPoolCommand,
  DeleteWebAuthnCredentialCommand,
  InitiateAuthCommand,
  ListWebAuthnCredentialsCommand,
  RespondToAuthChallengeCommand,
  SetUserMFAPreferenceCommand,
  SetUserPoolMfaConfigCommand,
  StartWebAuthnRegistrationCommand,
  AssociateSoftwareTokenCommand,
  VerifySoftwareTokenCommand,
} from '@aws-sdk/client-cognito-identity-provider';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { currentTotpCode } from '#clients/authenticator-code.ts';
import { createConfirmedAccount } from '#clients/cognito.ts';
import { preventUserExistenceErrorsSetting, USER_POOL_CLIENT } from '#contracts/user-pool-client.ts';
import { startCognitoEmulator } from '#emulators/cognito/index.ts';
import { cognitoRules } from '#local/iam/services.ts';
import { createAuthenticator, type SoftwareAuthenticator } from '#test/support/webauthn-authenticator.ts';
import { recordResponses } from './support/evidence.ts';
import { startFrontDoor } from './support/front-door.ts';
import { onAws, REGION, scratchName } from './support/target.ts';

/**
 * Passkeys in a user pool that requires MFA (TOTP), with passkeys allowed as a first factor and
 * counting as MFA with user verification (WebAuthnConfiguration FactorConfiguration
 * MULTI_FACTOR_WITH_USER_VERIFICATION, relying party localhost), each test named after the API
 * reference page it follows. Locally the emulator behind local mode's IAM gate; on AWS a scratch
 * Essentials pool configured alike, deleted again at the end. A software authenticator
 * (test/support/webauthn-authenticator.ts) plays the browser at http://localhost:5173.
 */

const ORIGIN = 'http://localhost:5173';
const PASSWORD = 'Conform#ance1';
const SLOW = 240_000;
const WEB_AUTHN = {
  relyingPartyId: 'localhost',
  userVerification: 'preferred',
  factorConfiguration: 'MULTI_FACTOR_WITH_USER_VERIFICATION',
} as const;
const AUTH_FLOWS = ['ALLOW_USER_SRP_AUTH', 'ALLOW_USER_AUTH', 'ALLOW_REFRESH_TOKEN_AUTH'] as const;
const STEP_MS = 30_000;

interface PasskeyTarget {
  client: CognitoIdentityProviderClient;
  userPoolId: string;
  clientId: string;
  /** A TOTP code from a 30-second step not yet used with the secret. */
  totp(secret: string): Promise<string>;
  close(): Promise<void>;
}

/** Hands out codes from unused steps, moving `now` on by `wait`. */
function totpSource(now: () => number, wait: (ms: number) => Promise<void>) {
  const lastStep = new Map<string, number>();
  return async (secret: string) => {
    const used = lastStep.get(secret);
    if (used !== undefined && Math.floor(now() / STEP_MS) <= used) await wait((used + 1) * STEP_MS - now() + 1_000);
    const time = now();
    lastStep.set(secret, Math.floor(time / STEP_MS));
    return currentTotpCode(secret, time);
  };
}

async function startLocalTarget(): Promise<PasskeyTarget> {
  const dataDir = await mkdtemp(join(tmpdir(), 'conformance-passkeys-'));
  let offset = 0;
  const now = () => Date.now() + offset;
  const emulator = await startCognitoEmulator({
    dataDir,
    region: REGION,
    client: { ...USER_POOL_CLIENT, explicitAuthFlows: AUTH_FLOWS },
    sendEmail: async () => undefined,
    now,
    webAuthn: WEB_AUTHN,
    allowedFirstAuthFactors: ['PASSWORD', 'WEB_AUTHN'],
    webAuthnOrigins: [ORIGIN],
  });
  const { userPoolId, clientId } = emulator;
  const close = async () => {
    await emulator.close();
    await rm(dataDir, { recursive: true, force: true });
  };
  // Admin calls signed with the functions' role credentials, the token-authorized ones as Cognito takes them.
  const door = await startFrontDoor({
    rules: cognitoRules,
    upstream: emulator.url,
    userPool: { userPoolId, clientId },
  }).catch(async (error: unknown) => {
    await close();
    throw error;
  });
  const client = new CognitoIdentityProviderClient({
    endpoint: door.url,
    region: REGION,
    credentials: door.functions,
    maxAttempts: 1,
  });
  const totp = totpSource(now, async (ms) => {
    offset += ms;
  });
  return {
    client,
    userPoolId,
    clientId,
    totp,
    close: async () => {
      client.destroy();
      await door.close();
      await close();
    },
  };
}

async function startAwsTarget(): Promise<PasskeyTarget> {
  const client = recordResponses(new CognitoIdentityProviderClient({ region: REGION }));
  const created = await client.send(
    new CreateUserPoolCommand({
      PoolName: scratchName('portal-passkeys'),
      UserPoolTier: 'ESSENTIALS',
      UsernameAttributes: ['email'],
      UsernameConfiguration: { CaseSensitive: false },
      AutoVerifiedAttributes: ['email'],
      Policies: { SignInPolicy: { AllowedFirstAuthFactors: ['PASSWORD', 'WEB_AUTHN'] } },
      DeletionProtection: 'INACTIVE',
    }),
  );
  const userPoolId = created.UserPool!.Id!;
  const close = async () => {
    await client.send(new DeleteUserPoolCommand({ UserPoolId: userPoolId }));
    client.destroy();
  };
  try {
    await client.send(
      new SetUserPoolMfaConfigCommand({
        UserPoolId: userPoolId,
        MfaConfiguration: 'ON',
        SoftwareTokenMfaConfiguration: { Enabled: true },
        WebAuthnConfiguration: {
          RelyingPartyId: WEB_AUTHN.relyingPartyId,
          UserVerification: WEB_AUTHN.userVerification,
          FactorConfiguration: WEB_AUTHN.factorConfiguration,
        },
      }),
    );
    const appClient = await client.send(
      new CreateUserPoolClientCommand({
        UserPoolId: userPoolId,
        ClientName: 'web',
        GenerateSecret: false,
        ExplicitAuthFlows: [...AUTH_FLOWS],
        PreventUserExistenceErrors: preventUserExistenceErrorsSetting(),
      }),
    );
    const totp = totpSource(Date.now, (ms) => new Promise((resolve) => setTimeout(resolve, ms)));
    return { client, userPoolId, clientId: appClient.UserPoolClient!.ClientId!, totp, close };
  } catch (error) {
    await close();
    throw error;
  }
}

let target: PasskeyTarget;
beforeAll(async () => {
  target = onAws ? await startAwsTarget() : await startLocalTarget();
  // The first start may synthesize the app for the functions' role policies (support/front-door.ts).
}, 300_000);
afterAll(() => target?.close());

const initiate = (parameters: Record<string, string>) =>
  target.client.send(
    new InitiateAuthCommand({ AuthFlow: 'USER_AUTH', ClientId: target.clientId, AuthParameters: parameters }),
  );

const respond = (
  name: 'MFA_SETUP' | 'SOFTWARE_TOKEN_MFA' | 'WEB_AUTHN',
  session: string | undefined,
  responses: Record<string, string>,
) =>
  target.client.send(
    new RespondToAuthChallengeCommand({
      ClientId: target.clientId,
      ChallengeName: name,
      Session: session,
      ChallengeResponses: responses,
    }),
  );

/** A new account through its first sign-in (USER_AUTH with the password, MFA_SETUP), with TOTP enabled. */
async function enrol(label: string) {
  const email = `${scratchName(label)}@example.com`;
  const username = await createConfirmedAccount(target.client, target.userPoolId, {
    email,
    password: PASSWORD,
    groups: [],
  });
  const first = await initiate({ USERNAME: email, PREFERRED_CHALLENGE: 'PASSWORD', PASSWORD });
  expect(first.ChallengeName).toBe('MFA_SETUP');
  const associated = await target.client.send(new AssociateSoftwareTokenCommand({ Session: first.Session }));
  const secret = associated.SecretCode!;
  const verified = await target.client.send(
    new VerifySoftwareTokenCommand({ Session: associated.Session, UserCode: await target.totp(secret) }),
  );
  const done = await respond('MFA_SETUP', verified.Session, { USERNAME: email });
  const accessToken = done.AuthenticationResult!.AccessToken!;
  await target.client.send(
    new SetUserMFAPreferenceCommand({
      AccessToken: accessToken,
      SoftwareTokenMfaSettings: { Enabled: true, PreferredMfa: true },
    }),
  );
  return { email, username, secret, accessToken };
}

async function register(accessToken: string, authenticator: SoftwareAuthenticator, origin = ORIGIN) {
  const started = await target.client.send(new StartWebAuthnRegistrationCommand({ AccessToken: accessToken }));
  const credential = authenticator.register(started.CredentialCreationOptions as object, { origin });
  await target.client.send(
    new CompleteWebAuthnRegistrationCommand({
      AccessToken: accessToken,
      Credential: credential as unknown as Record<string, never>,
    }),
  );
  return started.CredentialCreationOptions as Record<string, unknown>;
}

/** USER_AUTH with PREFERRED_CHALLENGE WEB_AUTHN, answered by the authenticator. */
async function passkeySignIn(email: string, authenticator: SoftwareAuthenticator) {
  const started = await initiate({ USERNAME: email, PREFERRED_CHALLENGE: 'WEB_AUTHN' });
  expect(started.ChallengeName).toBe('WEB_AUTHN');
  const options = started.ChallengeParameters!.CREDENTIAL_REQUEST_OPTIONS!;
  const assertion = authenticator.authenticate(options, { origin: ORIGIN });
  return respond('WEB_AUTHN', started.Session, { USERNAME: email, CREDENTIAL: JSON.stringify(assertion) });
}

describe('passkeys in a pool that requires MFA', () => {
  // https://docs.aws.amazon.com/cognito-user-identity-pools/latest/APIReference/API_StartWebAuthnRegistration.html
  // (CredentialCreationOptions, as the AWS CLI's example of start-web-authn-registration shows them).
  it(
    'StartWebAuthnRegistration: creation options for the relying party, ES256 and RS256, a resident key required',
    async () => {
      const account = await enrol('creation-options');
      const options = await register(account.accessToken, createAuthenticator());
      expect(options).toMatchObject({
        rp: { id: 'localhost', name: 'localhost' },
        pubKeyCredParams: [
          { alg: -7, type: 'public-key' },
          { alg: -257, type: 'public-key' },
        ],
        authenticatorSelection: { residentKey: 'required', userVerification: 'preferred' },
        excludeCredentials: [],
        user: { id: Buffer.from(account.username).toString('base64url') },
      });
      expect(options.challenge).toMatch(/^[A-Za-z0-9_-]+$/);
    },
    SLOW,
  );

  // https://docs.aws.amazon.com/cognito-user-identity-pools/latest/APIReference/API_CompleteWebAuthnRegistration.html
  // and API_ListWebAuthnCredentials.html (WebAuthnCredentialDescription).
  it(
    'CompleteWebAuthnRegistration: the passkey is listed with its relying party; an origin of another site is refused',
    async () => {
      const account = await enrol('complete-registration');
      const authenticator = createAuthenticator({ algorithm: 'RS256', attachment: 'cross-platform' });
      await register(account.accessToken, authenticator);
      const listed = await target.client.send(new ListWebAuthnCredentialsCommand({ AccessToken: account.accessToken }));
      expect(listed.Credentials).toHaveLength(1);
      expect(listed.Credentials![0]).toMatchObject({
        CredentialId: authenticator.credentialId,
        RelyingPartyId: 'localhost',
        AuthenticatorAttachment: 'cross-platform',
        FriendlyCredentialName: expect.any(String),
      });
      await expect(
        register(account.accessToken, createAuthenticator(), 'https://portal.example.net'),
      ).rejects.toMatchObject({
        name: 'WebAuthnOriginNotAllowedException',
      });
    },
    SLOW,
  );

  // https://docs.aws.amazon.com/cognito-user-identity-pools/latest/APIReference/API_InitiateAuth.html
  // (USER_AUTH: "If you don't provide a value for PREFERRED_CHALLENGE, Amazon Cognito responds with the
  // AvailableChallenges parameter").
  it(
    'InitiateAuth USER_AUTH: without PREFERRED_CHALLENGE, SELECT_CHALLENGE offers the passkey and the password',
    async () => {
      const account = await enrol('select-challenge');
      await register(account.accessToken, createAuthenticator());
      const select = await initiate({ USERNAME: account.email });
      expect(select.ChallengeName).toBe('SELECT_CHALLENGE');
      expect(select.AvailableChallenges).toEqual(expect.arrayContaining(['WEB_AUTHN', 'PASSWORD', 'PASSWORD_SRP']));
    },
    SLOW,
  );

  // https://docs.aws.amazon.com/cognito-user-identity-pools/latest/APIReference/API_WebAuthnMfaSettingsType.html
  // (passkey MFA is the user's choice: "When activated, ... passkey sign-in is available when MFA is required").
  it(
    'WebAuthnMfaSettings: with passkey MFA off, a passkey sign-in still asks for the authenticator’s code',
    async () => {
      const account = await enrol('passkey-first-factor');
      const authenticator = createAuthenticator();
      await register(account.accessToken, authenticator);
      const next = await passkeySignIn(account.email, authenticator);
      expect(next.ChallengeName).toBe('SOFTWARE_TOKEN_MFA');
      expect(next.AuthenticationResult).toBeUndefined();
      const done = await respond('SOFTWARE_TOKEN_MFA', next.Session, {
        USERNAME: account.email,
        SOFTWARE_TOKEN_MFA_CODE: await target.totp(account.secret),
      });
      expect(done.AuthenticationResult?.AccessToken).toBeDefined();
    },
    SLOW,
  );

  // https://docs.aws.amazon.com/cognito-user-identity-pools/latest/APIReference/API_WebAuthnMfaSettingsType.html
  // and API_WebAuthnConfigurationType.html (FactorConfiguration: "passkey authentication with user
  // verification satisfies MFA requirements").
  it(
    'WebAuthnMfaSettings: with passkey MFA on, a verified passkey sign-in gets tokens without the code',
    async () => {
      const account = await enrol('passkey-mfa');
      const authenticator = createAuthenticator();
      await register(account.accessToken, authenticator);
      await target.client.send(
        new SetUserMFAPreferenceCommand({ AccessToken: account.accessToken, WebAuthnMfaSettings: { Enabled: true } }),
      );
      const done = await passkeySignIn(account.email, authenticator);
      expect(done.ChallengeName).toBeUndefined();
      expect(done.AuthenticationResult?.AccessToken).toBeDefined();
    },
    SLOW,
  );

  // https://docs.aws.amazon.com/cognito-user-identity-pools/latest/APIReference/API_DeleteWebAuthnCredential.html
  it(
    'DeleteWebAuthnCredential: an ID that is not one of the user’s passkeys is ResourceNotFoundException',
    async () => {
      const account = await enrol('delete-credential');
      const authenticator = createAuthenticator();
      await register(account.accessToken, authenticator);
      await expect(
        target.client.send(
          new DeleteWebAuthnCredentialCommand({ AccessToken: account.accessToken, CredentialId: 'bm90LWEtcGFzc2tleQ' }),
        ),
      ).rejects.toMatchObject({ name: 'ResourceNotFoundException' });
      await target.client.send(
        new DeleteWebAuthnCredentialCommand({
          AccessToken: account.accessToken,
          CredentialId: authenticator.credentialId,
        }),
      );
      const listed = await target.client.send(new ListWebAuthnCredentialsCommand({ AccessToken: account.accessToken }));
      expect(listed.Credentials).toEqual([]);
    },
    SLOW,
  );
});

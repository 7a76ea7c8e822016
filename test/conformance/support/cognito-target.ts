import {
  CognitoIdentityProviderClient,
  CreateUserPoolClientCommand,
  CreateUserPoolCommand,
  DeleteUserPoolCommand,
  SetUserPoolMfaConfigCommand,
} from '@aws-sdk/client-cognito-identity-provider';
import { CognitoUserPool } from 'amazon-cognito-identity-js';
import { currentTotpCode } from '#clients/authenticator-code.ts';
import { preventUserExistenceErrorsSetting, USER_POOL_CLIENT } from '#contracts/user-pool-client.ts';
import { createConfirmedAccount, memoryStorage } from '#clients/cognito.ts';
import { cognitoRules } from '#local/iam/services.ts';
import { startHarness, type CognitoHarness } from '#test/local/support/cognito-harness.ts';
import { recordResponses } from './evidence.ts';
import { startFrontDoor } from './front-door.ts';
import { onAws, REGION, scratchName } from './target.ts';

/**
 * A user pool configured as the product's, for the Cognito conformance tests: locally the
 * emulator (on a free port, in a temporary directory), on AWS a scratch pool created with
 * the settings of lib/auth.ts and the app client of contracts/user-pool-client.ts, deleted
 * again by close().
 */
export interface CognitoTarget {
  /** Signs admin calls with the current credentials (any credentials locally). */
  admin: CognitoIdentityProviderClient;
  userPoolId: string;
  clientId: string;
  /** A fresh amazon-cognito-identity-js pool object (its own token storage) for SRP sign-ins. */
  pool(): CognitoUserPool;
  /** A confirmed account with a verified email and a permanent password; returns the username. */
  createUser(email: string, password: string): Promise<string>;
  /** An email address unique to this run. */
  email(label: string): string;
  /**
   * A TOTP code for `secret` from a 30-second step not yet used with it (Cognito accepts each
   * code once): locally the emulator's clock moves on, on AWS this waits for the next step.
   */
  totp(secret: string): Promise<string>;
  close(): Promise<void>;
}

const STEP_MS = 30_000;

/** Hands out codes from unused steps, moving `now` on by `wait`. */
function totpSource(now: () => number, wait: (ms: number) => Promise<void>) {
  const lastStep = new Map<string, number>();
  return async (secret: string) => {
    const used = lastStep.get(secret);
    const current = Math.floor(now() / STEP_MS);
    if (used !== undefined && current <= used) await wait((used + 1) * STEP_MS - now() + 1_000);
    const time = now();
    lastStep.set(secret, Math.floor(time / STEP_MS));
    return currentTotpCode(secret, time);
  };
}

const emailFactory = () => (label: string) => `${scratchName(label)}@example.com`;

export interface CognitoTargetOptions {
  allowSelfSignUp?: boolean;
  /** Device tracking as lib/auth.ts sets it with rememberDevices (only remembered on user prompt). */
  rememberDevices?: boolean;
}

/** The pool's DeviceConfiguration with rememberDevices (lib/auth.ts). */
const REMEMBER_ON_PROMPT = { challengeRequiredOnNewDevice: true, deviceOnlyRememberedOnUserPrompt: true };

export async function startCognitoTarget(options: CognitoTargetOptions = {}): Promise<CognitoTarget> {
  return onAws ? startAwsTarget(options) : startLocalTarget(options);
}

async function startLocalTarget(options: CognitoTargetOptions): Promise<CognitoTarget> {
  const harness: CognitoHarness = await startHarness({
    ...(options.allowSelfSignUp === undefined ? {} : { allowSelfSignUp: options.allowSelfSignUp }),
    ...(options.rememberDevices ? { deviceTracking: REMEMBER_ON_PROMPT } : {}),
  });
  const totp = totpSource(harness.now, async (ms) => harness.advance(ms));
  const { userPoolId, clientId } = harness.emulator;
  // Every call goes through local mode's IAM gate: admin calls signed with the functions' role
  // credentials, the public and token-authorized ones (SRP, MFA, devices) unsigned as Cognito takes them.
  const door = await startFrontDoor({
    rules: cognitoRules,
    upstream: harness.emulator.url,
    userPool: { userPoolId, clientId },
  }).catch(async (error: unknown) => {
    await harness.close();
    throw error;
  });
  const admin = new CognitoIdentityProviderClient({
    endpoint: door.url,
    region: REGION,
    credentials: door.functions,
    maxAttempts: 1,
  });
  return {
    admin,
    userPoolId,
    clientId,
    pool: () =>
      new CognitoUserPool({ UserPoolId: userPoolId, ClientId: clientId, endpoint: door.url, Storage: memoryStorage() }),
    createUser: (email, password) => createConfirmedAccount(admin, userPoolId, { email, password, groups: [] }),
    email: emailFactory(),
    totp: async (secret) => totp(secret),
    close: async () => {
      admin.destroy();
      await door.close();
      await harness.close();
    },
  };
}

async function startAwsTarget(options: CognitoTargetOptions): Promise<CognitoTarget> {
  const admin = recordResponses(new CognitoIdentityProviderClient({ region: REGION }));
  const created = await admin.send(
    new CreateUserPoolCommand({
      PoolName: scratchName('portal-users'),
      UserPoolTier: 'ESSENTIALS',
      UsernameAttributes: ['email'],
      UsernameConfiguration: { CaseSensitive: false },
      AutoVerifiedAttributes: ['email'],
      Schema: [{ Name: 'email', AttributeDataType: 'String', Required: true, Mutable: true }],
      // The password policy of lib/auth.ts.
      Policies: {
        PasswordPolicy: {
          MinimumLength: 8,
          RequireLowercase: true,
          RequireUppercase: true,
          RequireNumbers: true,
          RequireSymbols: true,
          TemporaryPasswordValidityDays: 7,
        },
      },
      AdminCreateUserConfig: { AllowAdminCreateUserOnly: options.allowSelfSignUp === false },
      AccountRecoverySetting: { RecoveryMechanisms: [{ Name: 'verified_email', Priority: 1 }] },
      DeletionProtection: 'INACTIVE',
      ...(options.rememberDevices && {
        DeviceConfiguration: {
          ChallengeRequiredOnNewDevice: REMEMBER_ON_PROMPT.challengeRequiredOnNewDevice,
          DeviceOnlyRememberedOnUserPrompt: REMEMBER_ON_PROMPT.deviceOnlyRememberedOnUserPrompt,
        },
      }),
    }),
  );
  const userPoolId = created.UserPool!.Id!;
  const close = async () => {
    await admin.send(new DeleteUserPoolCommand({ UserPoolId: userPoolId }));
    admin.destroy();
  };
  try {
    // CreateUserPool cannot require MFA without SMS; TOTP-only MFA ON is set afterwards.
    await admin.send(
      new SetUserPoolMfaConfigCommand({
        UserPoolId: userPoolId,
        MfaConfiguration: 'ON',
        SoftwareTokenMfaConfiguration: { Enabled: true },
      }),
    );
    const validity = USER_POOL_CLIENT.defaultTokenValidity;
    const client = await admin.send(
      new CreateUserPoolClientCommand({
        UserPoolId: userPoolId,
        ClientName: 'web',
        GenerateSecret: USER_POOL_CLIENT.generateSecret,
        ExplicitAuthFlows: [...USER_POOL_CLIENT.explicitAuthFlows],
        PreventUserExistenceErrors: preventUserExistenceErrorsSetting(),
        EnableTokenRevocation: USER_POOL_CLIENT.enableTokenRevocation,
        AccessTokenValidity: validity.accessTokenMinutes,
        IdTokenValidity: validity.idTokenMinutes,
        RefreshTokenValidity: validity.refreshTokenDays,
        TokenValidityUnits: { AccessToken: 'minutes', IdToken: 'minutes', RefreshToken: 'days' },
        ReadAttributes: ['email', 'email_verified'],
        WriteAttributes: ['email'],
      }),
    );
    const clientId = client.UserPoolClient!.ClientId!;
    const totp = totpSource(Date.now, (ms) => new Promise((resolve) => setTimeout(resolve, ms)));
    return {
      admin,
      userPoolId,
      clientId,
      pool: () => new CognitoUserPool({ UserPoolId: userPoolId, ClientId: clientId, Storage: memoryStorage() }),
      createUser: (email, password) => createConfirmedAccount(admin, userPoolId, { email, password, groups: [] }),
      email: emailFactory(),
      totp,
      close,
    };
  } catch (error) {
    await close();
    throw error;
  }
}

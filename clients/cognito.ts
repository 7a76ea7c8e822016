import {
  AdminAddUserToGroupCommand,
  AdminCreateUserCommand,
  AdminDeleteUserCommand,
  AdminSetUserPasswordCommand,
  CognitoIdentityProviderClient,
  SetUserMFAPreferenceCommand,
  UsernameExistsException,
} from '@aws-sdk/client-cognito-identity-provider';
import {
  AuthenticationDetails,
  CognitoUser,
  CognitoUserPool,
  type CognitoUserSession,
  type IAuthenticationCallback,
  type ICognitoStorage,
} from 'amazon-cognito-identity-js';
import { currentTotpCode } from './authenticator-code.ts';
// The library's SRP powers on OpenSSL: a few milliseconds per sign-in instead of about 180 (see the module).
import './srp-arithmetic.ts';

export interface AccountToEnroll {
  readonly email: string;
  readonly password: string;
  readonly group: string;
}

export interface PoolContext {
  readonly client: CognitoIdentityProviderClient;
  /** The identity provider's endpoint, for the sign-in library. */
  readonly endpoint: string;
  readonly userPoolId: string;
  readonly clientId: string;
  /** The account's current authenticator secret, once it has one. */
  readonly readTotpSecret: (email: string) => Promise<string | undefined>;
}

/** An account made straight in the pool: confirmed, its email verified, its password permanent. */
export interface ConfirmedAccount {
  readonly email: string;
  readonly password: string;
  /** The groups it is added to, in order. */
  readonly groups: readonly string[];
}

export interface ConfirmedAccountOptions {
  /**
   * An account that already has the name: kept (its password and groups are set again), or,
   * when false, the UsernameExistsException is thrown. @default false
   */
  readonly keepExisting?: boolean;
  /** If setting the password or a group fails, the new account is deleted again. @default false */
  readonly removeIfUnfinished?: boolean;
}

/**
 * Creates a confirmed account as an administrator would, outside the portal: AdminCreateUser
 * with no message (the email given and verified), AdminSetUserPassword made permanent, then
 * AdminAddUserToGroup for each group. Resolves with the new account's Username; an existing
 * account that is kept resolves with undefined.
 */
export function createConfirmedAccount(
  client: CognitoIdentityProviderClient,
  userPoolId: string,
  account: ConfirmedAccount,
  options?: ConfirmedAccountOptions & { readonly keepExisting?: false },
): Promise<string>;
export function createConfirmedAccount(
  client: CognitoIdentityProviderClient,
  userPoolId: string,
  account: ConfirmedAccount,
  options: ConfirmedAccountOptions,
): Promise<string | undefined>;
export async function createConfirmedAccount(
  client: CognitoIdentityProviderClient,
  userPoolId: string,
  account: ConfirmedAccount,
  options: ConfirmedAccountOptions = {},
): Promise<string | undefined> {
  let username: string | undefined;
  try {
    const created = await client.send(
      new AdminCreateUserCommand({
        UserPoolId: userPoolId,
        Username: account.email,
        UserAttributes: [
          { Name: 'email', Value: account.email },
          { Name: 'email_verified', Value: 'true' },
        ],
        MessageAction: 'SUPPRESS',
      }),
    );
    username = created.User!.Username!;
  } catch (error) {
    if (!(options.keepExisting && error instanceof UsernameExistsException)) throw error;
  }
  try {
    await client.send(
      new AdminSetUserPasswordCommand({
        UserPoolId: userPoolId,
        Username: account.email,
        Password: account.password,
        Permanent: true,
      }),
    );
    for (const group of account.groups) {
      await client.send(
        new AdminAddUserToGroupCommand({ UserPoolId: userPoolId, Username: account.email, GroupName: group }),
      );
    }
  } catch (error) {
    if (options.removeIfUnfinished && username !== undefined) {
      await client
        .send(new AdminDeleteUserCommand({ UserPoolId: userPoolId, Username: account.email }))
        .catch(() => undefined);
    }
    throw error;
  }
  return username;
}

/** Creates the account (confirmed, verified email, permanent password) in its group; an existing account is kept. */
export async function ensureAccount(pool: PoolContext, account: AccountToEnroll): Promise<void> {
  await createConfirmedAccount(
    pool.client,
    pool.userPoolId,
    { email: account.email, password: account.password, groups: [account.group] },
    { keepExisting: true },
  );
}

/** An isolated token store for amazon-cognito-identity-js (its default is one process-wide store). */
export function memoryStorage(): ICognitoStorage & { keys(): IterableIterator<string> } {
  const items = new Map<string, string>();
  return {
    setItem: (key, value) => void items.set(key, value),
    getItem: (key) => items.get(key) ?? null,
    removeItem: (key) => void items.delete(key),
    clear: () => items.clear(),
    // What the library stored (a remembered device's key and secret among them), for tests.
    keys: () => items.keys(),
  };
}

/** Promise wrappers over the unmodified amazon-cognito-identity-js, as the SPA drives it. */

/** Where a sign-in stands after a password or a challenge answer. */
export type SignInOutcome =
  | { step: 'DONE'; session: CognitoUserSession }
  | { step: 'MFA_SETUP' }
  | { step: 'SOFTWARE_TOKEN_MFA' }
  | { step: 'NEW_PASSWORD_REQUIRED'; userAttributes: Record<string, string> };

/** A library user object with its own token storage, as one browser would have. */
export function userFor(pool: CognitoUserPool, username: string): CognitoUser {
  return new CognitoUser({ Username: username, Pool: pool, Storage: memoryStorage() });
}

function outcomeCallbacks(
  user: CognitoUser,
  resolve: (outcome: SignInOutcome) => void,
  reject: (error: unknown) => void,
): IAuthenticationCallback {
  return {
    onSuccess: (session) => resolve({ step: 'DONE', session }),
    onFailure: reject,
    newPasswordRequired: (userAttributes: Record<string, string>) =>
      resolve({ step: 'NEW_PASSWORD_REQUIRED', userAttributes }),
    mfaSetup: () => resolve({ step: 'MFA_SETUP' }),
    totpRequired: () => resolve({ step: 'SOFTWARE_TOKEN_MFA' }),
    mfaRequired: () => reject(new Error(`Unexpected SMS MFA challenge for ${user.getUsername()}`)),
    selectMFAType: () => reject(new Error(`Unexpected MFA selection challenge for ${user.getUsername()}`)),
    customChallenge: () => reject(new Error(`Unexpected custom challenge for ${user.getUsername()}`)),
  };
}

/** Signs in with SRP (the library's default) or, when asked, USER_PASSWORD_AUTH. */
export function authenticate(
  user: CognitoUser,
  username: string,
  password: string,
  flow: 'USER_SRP_AUTH' | 'USER_PASSWORD_AUTH' = 'USER_SRP_AUTH',
): Promise<SignInOutcome> {
  user.setAuthenticationFlowType(flow);
  return new Promise((resolve, reject) =>
    user.authenticateUser(
      new AuthenticationDetails({ Username: username, Password: password }),
      outcomeCallbacks(user, resolve, reject),
    ),
  );
}

/** Answers the SOFTWARE_TOKEN_MFA challenge with an authenticator code. */
export function answerTotp(user: CognitoUser, code: string): Promise<SignInOutcome> {
  return new Promise((resolve, reject) =>
    user.sendMFACode(code, outcomeCallbacks(user, resolve, reject), 'SOFTWARE_TOKEN_MFA'),
  );
}

/** Answers the NEW_PASSWORD_REQUIRED challenge. */
export function answerNewPassword(user: CognitoUser, newPassword: string): Promise<SignInOutcome> {
  return new Promise((resolve, reject) =>
    user.completeNewPasswordChallenge(newPassword, {}, outcomeCallbacks(user, resolve, reject)),
  );
}

/** Starts authenticator set-up (AssociateSoftwareToken); resolves with the secret. */
export function associateSoftwareToken(user: CognitoUser): Promise<string> {
  return new Promise((resolve, reject) =>
    user.associateSoftwareToken({ associateSecretCode: resolve, onFailure: reject }),
  );
}

/**
 * Verifies the authenticator's code (VerifySoftwareToken), naming it `friendlyName`. During
 * MFA_SETUP this ends the sign-in and yields the session.
 */
export function verifySoftwareToken(
  user: CognitoUser,
  code: string,
  friendlyName = 'authenticator',
): Promise<CognitoUserSession> {
  return new Promise((resolve, reject) =>
    user.verifySoftwareToken(code, friendlyName, { onSuccess: resolve, onFailure: reject }),
  );
}

/**
 * Answers the MFA_SETUP challenge of `user`'s sign-in as the SPA does: an authenticator enrolled
 * on the challenge session (AssociateSoftwareToken, then VerifySoftwareToken with the current
 * code, naming it `deviceName`), then TOTP set as the preferred factor. Resolves with the new
 * secret and the session's access token.
 */
export async function enrolAuthenticator(
  pool: Pick<PoolContext, 'client'>,
  user: CognitoUser,
  deviceName: string,
): Promise<{ secret: string; accessToken: string }> {
  const secret = await associateSoftwareToken(user);
  const session = await verifySoftwareToken(user, currentTotpCode(secret), deviceName);
  const accessToken = session.getAccessToken().getJwtToken();
  await pool.client.send(
    new SetUserMFAPreferenceCommand({
      AccessToken: accessToken,
      SoftwareTokenMfaSettings: { Enabled: true, PreferredMfa: true },
    }),
  );
  return { secret, accessToken };
}

/**
 * Signs the account in as a person's first sign-in does, with the same library and flow as
 * the SPA (SRP, the only password flow the app client allows): password, then the MFA_SETUP
 * challenge with an authenticator enrolled on the challenge session, so the secret is known
 * to local mode, then TOTP set as the preferred factor as the SPA does after setup. An
 * account that already has an authenticator answers SOFTWARE_TOKEN_MFA with its code.
 * Resolves with the access token; `deviceName` names the authenticator in Cognito.
 */
export async function signInWithAuthenticator(
  pool: PoolContext,
  account: AccountToEnroll,
  deviceName = 'Local mode seed',
): Promise<string> {
  const userPool = new CognitoUserPool({
    UserPoolId: pool.userPoolId,
    ClientId: pool.clientId,
    endpoint: pool.endpoint,
    Storage: memoryStorage(),
  });
  const user = userFor(userPool, account.email);
  const settled = (outcome: SignInOutcome): SignInOutcome => {
    if (outcome.step === 'NEW_PASSWORD_REQUIRED') throw new Error(`${account.email} must set a new password first`);
    return outcome;
  };
  const started = settled(await authenticate(user, account.email, account.password));

  if (started.step === 'DONE') return started.session.getAccessToken().getJwtToken();
  if (started.step === 'MFA_SETUP') return (await enrolAuthenticator(pool, user, deviceName)).accessToken;
  const secret = await pool.readTotpSecret(account.email);
  if (!secret)
    throw new Error(`${account.email} asks for an authenticator code but local mode does not know its secret`);
  const done = settled(await answerTotp(user, currentTotpCode(secret)));
  if (done.step !== 'DONE') throw new Error(`The authenticator code of ${account.email} was not accepted`);
  return done.session.getAccessToken().getJwtToken();
}

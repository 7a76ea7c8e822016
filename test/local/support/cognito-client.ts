import {
  AuthenticationDetails,
  CognitoUser,
  type CognitoUserPool,
  type CognitoUserSession,
  type IAuthenticationCallback,
} from 'amazon-cognito-identity-js';
import { memoryStorage } from '#clients/cognito.ts';

/** Promise wrappers over the unmodified amazon-cognito-identity-js, as the SPA drives it. */

export { memoryStorage };

export type SignInOutcome =
  | { step: 'DONE'; session: CognitoUserSession }
  | { step: 'MFA_SETUP' }
  | { step: 'SOFTWARE_TOKEN_MFA' }
  | { step: 'NEW_PASSWORD_REQUIRED'; userAttributes: Record<string, string> };

/** A library user object with its own token storage, as one browser would have. */
export function userFor(pool: CognitoUserPool, username: string): CognitoUser {
  return new CognitoUser({ Username: username, Pool: pool, Storage: memoryStorage() });
}

function callbacks(
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
    mfaRequired: () => reject(new Error('unexpected SMS MFA challenge')),
    selectMFAType: () => reject(new Error('unexpected MFA selection challenge')),
    customChallenge: () => reject(new Error('unexpected custom challenge')),
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
      callbacks(resolve, reject),
    ),
  );
}

export function answerTotp(user: CognitoUser, code: string): Promise<SignInOutcome> {
  return new Promise((resolve, reject) => user.sendMFACode(code, callbacks(resolve, reject), 'SOFTWARE_TOKEN_MFA'));
}

export function answerNewPassword(user: CognitoUser, newPassword: string): Promise<SignInOutcome> {
  return new Promise((resolve, reject) =>
    user.completeNewPasswordChallenge(newPassword, {}, callbacks(resolve, reject)),
  );
}

export function associateSoftwareToken(user: CognitoUser): Promise<string> {
  return new Promise((resolve, reject) =>
    user.associateSoftwareToken({ associateSecretCode: resolve, onFailure: reject }),
  );
}

/** During MFA_SETUP this ends the sign-in and yields the session. */
export function verifySoftwareToken(user: CognitoUser, code: string): Promise<CognitoUserSession> {
  return new Promise((resolve, reject) =>
    user.verifySoftwareToken(code, 'authenticator', { onSuccess: resolve, onFailure: reject }),
  );
}

/** The first-time setup wizard: associate, compute a code from the secret, verify. */
export async function completeMfaSetup(user: CognitoUser, codeFor: (secret: string) => string) {
  const secret = await associateSoftwareToken(user);
  const session = await verifySoftwareToken(user, codeFor(secret));
  return { secret, session };
}

export function refreshSession(user: CognitoUser, session: CognitoUserSession): Promise<CognitoUserSession> {
  return new Promise((resolve, reject) =>
    user.refreshSession(session.getRefreshToken(), (error: unknown, refreshed: CognitoUserSession) =>
      error ? reject(error) : resolve(refreshed),
    ),
  );
}

export function globalSignOut(user: CognitoUser): Promise<void> {
  return new Promise((resolve, reject) => user.globalSignOut({ onSuccess: () => resolve(), onFailure: reject }));
}

/** Sign-out that revokes the refresh token (RevokeToken), as the SPA's sign-out does. */
export function signOutRevoking(user: CognitoUser): Promise<void> {
  return new Promise((resolve, reject) => user.signOut((error?: Error) => (error ? reject(error) : resolve())));
}

export function getUserAttributes(user: CognitoUser): Promise<Record<string, string>> {
  return new Promise((resolve, reject) =>
    user.getUserAttributes((error, attributes) =>
      error || !attributes
        ? reject(error)
        : resolve(Object.fromEntries(attributes.map((attribute) => [attribute.getName(), attribute.getValue()]))),
    ),
  );
}

export function signUp(pool: CognitoUserPool, email: string, password: string) {
  return new Promise<{ userSub: string; userConfirmed: boolean; codeDeliveryDetails: unknown }>((resolve, reject) =>
    pool.signUp(email, password, [], [], (error, result) => (error || !result ? reject(error) : resolve(result))),
  );
}

export function confirmRegistration(user: CognitoUser, code: string): Promise<void> {
  return new Promise((resolve, reject) =>
    user.confirmRegistration(code, true, (error) => (error ? reject(error) : resolve())),
  );
}

export function forgotPassword(user: CognitoUser): Promise<{ CodeDeliveryDetails: Record<string, string> }> {
  return new Promise((resolve, reject) =>
    user.forgotPassword({ onSuccess: resolve, onFailure: reject, inputVerificationCode: resolve }),
  );
}

export function confirmPassword(user: CognitoUser, code: string, newPassword: string): Promise<void> {
  return new Promise((resolve, reject) =>
    user.confirmPassword(code, newPassword, { onSuccess: () => resolve(), onFailure: reject }),
  );
}

export function changePassword(user: CognitoUser, previous: string, proposed: string): Promise<void> {
  return new Promise((resolve, reject) =>
    user.changePassword(previous, proposed, (error) => (error ? reject(error) : resolve())),
  );
}

export function setTotpPreference(user: CognitoUser, enabled: boolean): Promise<void> {
  return new Promise((resolve, reject) =>
    user.setUserMfaPreference(null, { Enabled: enabled, PreferredMfa: enabled }, (error) =>
      error ? reject(error) : resolve(),
    ),
  );
}

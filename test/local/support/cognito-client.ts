import {
  AuthenticationDetails,
  type CognitoUser,
  type CognitoUserPool,
  type CognitoUserSession,
  type IAuthenticationCallback,
} from 'amazon-cognito-identity-js';
import { associateSoftwareToken, verifySoftwareToken } from '#clients/cognito.ts';

/**
 * Promise wrappers over the unmodified amazon-cognito-identity-js, as the SPA drives it: the
 * sign-in steps (password, challenge answers, authenticator set-up) are clients/cognito.ts's,
 * the account's other self-service calls are here.
 */

export {
  answerNewPassword,
  answerTotp,
  associateSoftwareToken,
  authenticate,
  userFor,
  verifySoftwareToken,
} from '#clients/cognito.ts';

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

/**
 * Where a sign-in stands, for the remembered-device tests: the tokens with ConfirmDevice's
 * UserConfirmationNecessary (the library's second onSuccess argument), or the challenge asked.
 */
export type DeviceSignInOutcome =
  { step: 'DONE'; session: CognitoUserSession; confirmationNecessary: boolean } | { step: 'CODE' } | { step: 'SETUP' };

function deviceCallbacks(
  resolve: (outcome: DeviceSignInOutcome) => void,
  reject: (error: unknown) => void,
): IAuthenticationCallback {
  return {
    onSuccess: (session, confirmationNecessary) =>
      resolve({ step: 'DONE', session, confirmationNecessary: confirmationNecessary === true }),
    onFailure: reject,
    totpRequired: () => resolve({ step: 'CODE' }),
    mfaSetup: () => resolve({ step: 'SETUP' }),
    newPasswordRequired: () => reject(new Error('unexpected new password challenge')),
    mfaRequired: () => reject(new Error('unexpected SMS challenge')),
  };
}

/** A password sign-in; a device remembered in the user's storage answers in place of the code. */
export const signInOnDevice = (user: CognitoUser, email: string, password: string) =>
  new Promise<DeviceSignInOutcome>((resolve, reject) =>
    user.authenticateUser(
      new AuthenticationDetails({ Username: email, Password: password }),
      deviceCallbacks(resolve, reject),
    ),
  );

/** Answers SOFTWARE_TOKEN_MFA; the library then confirms the sign-in's new device. */
export const sendCodeOnDevice = (user: CognitoUser, code: string) =>
  new Promise<DeviceSignInOutcome>((resolve, reject) =>
    user.sendMFACode(code, deviceCallbacks(resolve, reject), 'SOFTWARE_TOKEN_MFA'),
  );

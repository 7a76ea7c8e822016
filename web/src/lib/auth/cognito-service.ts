import {
  AuthenticationDetails,
  CognitoUser,
  CognitoUserAttribute,
  CognitoUserPool,
  type CognitoUserSession,
  type IAuthenticationCallback,
} from 'amazon-cognito-identity-js';
import { answerMfaSetup, AuthenticationHelper, preferTotp, type LibraryUser } from './cognito-library.ts';
import { currentDeviceKey } from './device-service.ts';
import {
  ALREADY_SIGNED_IN_MESSAGE,
  AuthError,
  DEVICE_REFUSED_CODE,
  INVALID_REFRESH_TOKEN_MESSAGE,
  toAuthError,
  type AuthSession,
  type MfaSetupDriver,
  type SignInResult,
  type SignUpResult,
} from './types.ts';

export interface CognitoServiceOptions {
  readonly userPoolId: string;
  readonly clientId: string;
  /** The identity provider's address when it is not the regional AWS endpoint (local mode). */
  readonly endpoint?: string;
  readonly storage?: Storage;
}

function toSession(username: string, session: CognitoUserSession): AuthSession {
  const access = session.getAccessToken();
  const id = session.getIdToken();
  const groups = access.decodePayload()['cognito:groups'];
  const email = id.decodePayload().email;
  // Expiry in local time: the library records the drift (local minus server, in seconds);
  // its typings omit the accessor.
  const driftMs = (session as unknown as { getClockDrift(): number }).getClockDrift() * 1000;
  return {
    username,
    email: typeof email === 'string' ? email : '',
    groups: Array.isArray(groups) ? groups.filter((g): g is string => typeof g === 'string') : [],
    accessToken: access.getJwtToken(),
    idToken: id.getJwtToken(),
    expiresAt: Math.min(access.getExpiration(), id.getExpiration()) * 1000 + driftMs,
  };
}

/**
 * A refusal of a refresh that named this browser's device: the device was forgotten (or is no
 * longer confirmed), so the refresh token bound to it is dead. Anything else is returned as is.
 */
function deviceRefusal(error: unknown, deviceKey: string | null): AuthError {
  const authError = toAuthError(error);
  if (deviceKey && authError.code === 'NotAuthorizedException' && authError.message === INVALID_REFRESH_TOKEN_MESSAGE) {
    return new AuthError(authError.message, DEVICE_REFUSED_CODE);
  }
  return authError;
}

/**
 * The session service on amazon-cognito-identity-js: SRP sign-in and its challenges, TOTP
 * enrolment during sign-in, tokens, refresh, global sign-out, sign-up and password reset.
 * This module is loaded on demand (it is about a quarter of the sign-in page's budget).
 */
export class CognitoAuthService {
  private readonly pool: CognitoUserPool;
  private readonly storage: Storage;
  /** The account between the password and the end of its challenges. */
  private pending: CognitoUser | null = null;

  constructor(options: CognitoServiceOptions) {
    this.storage = options.storage ?? window.localStorage;
    this.pool = new CognitoUserPool({
      UserPoolId: options.userPoolId,
      ClientId: options.clientId,
      Storage: this.storage,
      ...(options.endpoint ? { endpoint: options.endpoint } : {}),
    });
  }

  /**
   * The stored session, refreshed by the library when a token has expired; null when none. A
   * refresh refused because this browser's device was forgotten throws DEVICE_REFUSED_CODE, so
   * that the sign-in page can say why; a network failure throws too (the tokens are kept).
   */
  async currentSession(): Promise<AuthSession | null> {
    const user = this.pool.getCurrentUser();
    if (!user) return null;
    const deviceKey = this.storedDeviceKey(user);
    try {
      const session = await this.userSession(user);
      return toSession(user.getUsername(), session);
    } catch (error) {
      const authError = deviceRefusal(error, deviceKey);
      // A network failure keeps the stored tokens: the session may still be good.
      if (authError.code === 'NetworkError' || authError.code === DEVICE_REFUSED_CODE) throw authError;
      return null;
    }
  }

  /**
   * Exchanges the refresh token for new tokens (stored by the library). Where devices are
   * tracked the refresh must name this browser's device: the library sends the key it keeps
   * (DEVICE_KEY); a refusal of that key throws DEVICE_REFUSED_CODE.
   */
  async refresh(): Promise<AuthSession> {
    const user = this.pool.getCurrentUser();
    if (!user) throw new AuthError('Auth session was not found. Make sure to call signIn.', 'NoSessionFoundException');
    const deviceKey = this.storedDeviceKey(user);
    try {
      const current = await this.userSession(user);
      const refreshed = await new Promise<CognitoUserSession>((resolve, reject) => {
        user.refreshSession(current.getRefreshToken(), (error: unknown, session: CognitoUserSession | null) => {
          if (error || !session) reject(toAuthError(error));
          else resolve(session);
        });
      });
      return toSession(user.getUsername(), refreshed);
    } catch (error) {
      throw deviceRefusal(error, deviceKey);
    }
  }

  async signIn(email: string, password: string): Promise<SignInResult> {
    if (await this.currentSession().catch(() => null)) {
      throw new AuthError(ALREADY_SIGNED_IN_MESSAGE, 'UserAlreadyAuthenticatedException');
    }
    const user = new CognitoUser({ Username: email, Pool: this.pool, Storage: this.storage });
    this.pending = user;
    const details = new AuthenticationDetails({ Username: email, Password: password });
    return this.runChallenge(user, (callbacks) => user.authenticateUser(details, callbacks));
  }

  /**
   * Starts a sign-in the library does not drive itself (passkey-sign-in.ts): a new pending
   * account, refused while someone is signed in, as `signIn` does.
   */
  async beginSignIn(email: string): Promise<CognitoUser> {
    if (await this.currentSession().catch(() => null)) {
      throw new AuthError(ALREADY_SIGNED_IN_MESSAGE, 'UserAlreadyAuthenticatedException');
    }
    this.pending = new CognitoUser({ Username: email, Pool: this.pool, Storage: this.storage });
    return this.pending;
  }

  /** Cognito's answer to such a sign-in's step, taken as the library takes any: tokens kept, or the next step. */
  continueSignIn(user: CognitoUser, answer: Record<string, unknown>): Promise<SignInResult> {
    const internals = user as unknown as LibraryUser;
    return this.runChallenge(user, (callbacks) =>
      internals.authenticateUserInternal(answer, new AuthenticationHelper(this.pool.getUserPoolName()), callbacks),
    );
  }

  async confirmTotpCode(code: string): Promise<SignInResult> {
    const user = this.requirePending();
    return this.runChallenge(user, (callbacks) => user.sendMFACode(code, callbacks, 'SOFTWARE_TOKEN_MFA'), true);
  }

  async completeNewPassword(newPassword: string): Promise<SignInResult> {
    const user = this.requirePending();
    return this.runChallenge(user, (callbacks) => user.completeNewPasswordChallenge(newPassword, {}, callbacks));
  }

  /** Enrolment during the MFA_SETUP challenge: Cognito's session, no access token yet. */
  signInMfaSetup(): MfaSetupDriver {
    const user = this.requirePending();
    return {
      associate: () =>
        new Promise<string>((resolve, reject) => {
          user.associateSoftwareToken({
            associateSecretCode: resolve,
            onFailure: (error) => reject(toAuthError(error)),
          });
        }),
      verify: async (code: string) => {
        await new Promise<void>((resolve, reject) => {
          answerMfaSetup(user, this.pool, code, {
            onSuccess: () => {
              this.pending = null;
              resolve();
            },
            onFailure: (error) => reject(toAuthError(error)),
          });
        });
        await preferTotp(user);
      },
    };
  }

  /**
   * Signs the current account in again (password, then a code from its authenticator) for
   * the actions that need a recent sign-in. The new tokens replace the stored ones only once
   * both steps succeed; until then the current session stays as it was.
   */
  async reauthenticate(email: string, password: string, code: string): Promise<AuthSession> {
    const user = new CognitoUser({ Username: email, Pool: this.pool, Storage: this.storage });
    const details = new AuthenticationDetails({ Username: email, Password: password });
    const first = await this.runChallenge(user, (callbacks) => user.authenticateUser(details, callbacks));
    if (first.step === 'DONE') return first.session;
    if (first.step !== 'CONFIRM_SIGN_IN_WITH_TOTP_CODE') {
      throw new AuthError(
        'This account has no authenticator to confirm with. Please sign in again.',
        'UnsupportedChallenge',
      );
    }
    const second = await this.runChallenge(user, (callbacks) =>
      user.sendMFACode(code, callbacks, 'SOFTWARE_TOKEN_MFA'),
    );
    if (second.step !== 'DONE')
      throw new AuthError('MFA verification failed. Please try again.', 'UnsupportedChallenge');
    return second.session;
  }

  cancelSignIn(): void {
    this.pending = null;
  }

  /**
   * Sign-out everywhere. A token from a refresh cannot call Cognito's GlobalSignOut (it lacks
   * the admin scope), so `endEverywhere` asks the portal's function to do it with the current
   * access token; without it, this browser's refresh token is revoked (RevokeToken). The local
   * tokens are cleared even if the call fails.
   */
  async signOut(endEverywhere?: (accessToken: string) => Promise<void>): Promise<void> {
    this.pending = null;
    const user = this.pool.getCurrentUser();
    if (!user) return;
    try {
      const session = await this.userSession(user);
      if (endEverywhere) {
        await endEverywhere(session.getAccessToken().getJwtToken());
      } else {
        await new Promise<void>((resolve, reject) => {
          user.signOut((error?: unknown) => (error ? reject(toAuthError(error)) : resolve()));
        });
      }
    } finally {
      user.signOut();
    }
  }

  async signUp(email: string, password: string): Promise<SignUpResult> {
    const attributes = [new CognitoUserAttribute({ Name: 'email', Value: email })];
    return new Promise<SignUpResult>((resolve, reject) => {
      this.pool.signUp(email, password, attributes, [], (error, result) => {
        if (error || !result) {
          reject(toAuthError(error));
          return;
        }
        resolve({
          isSignUpComplete: result.userConfirmed,
          userId: result.userSub,
          ...(result.codeDeliveryDetails?.Destination ? { destination: result.codeDeliveryDetails.Destination } : {}),
        });
      });
    });
  }

  /** Sends a reset code; with PreventUserExistenceErrors an unknown address gets the same answer. */
  async forgotPassword(email: string): Promise<void> {
    const user = new CognitoUser({ Username: email, Pool: this.pool, Storage: this.storage });
    return new Promise<void>((resolve, reject) => {
      user.forgotPassword({
        onSuccess: () => resolve(),
        onFailure: (error) => reject(toAuthError(error)),
        inputVerificationCode: () => resolve(),
      });
    });
  }

  async confirmForgotPassword(email: string, code: string, newPassword: string): Promise<void> {
    const user = new CognitoUser({ Username: email, Pool: this.pool, Storage: this.storage });
    return new Promise<void>((resolve, reject) => {
      user.confirmPassword(code, newPassword, {
        onSuccess: () => resolve(),
        onFailure: (error) => reject(toAuthError(error)),
      });
    });
  }

  /** The signed-in user with a live session and this browser's device key loaded (device-service.ts). */
  async signedInUserWithDevice(): Promise<CognitoUser> {
    const user = this.pool.getCurrentUser();
    if (!user) throw new AuthError('Authentication required', 'NoValidAuthTokens');
    await this.userSession(user);
    user.getCachedDeviceKeyAndPassword();
    return user;
  }

  /** The device key the library keeps for this user and sends with a refresh, or null. */
  private storedDeviceKey(user: CognitoUser): string | null {
    user.getCachedDeviceKeyAndPassword();
    return currentDeviceKey(user);
  }

  private requirePending(): CognitoUser {
    if (!this.pending) {
      throw new AuthError('Auth session was not found. Make sure to call signIn.', 'NoSessionFoundException');
    }
    return this.pending;
  }

  private userSession(user: CognitoUser): Promise<CognitoUserSession> {
    return new Promise<CognitoUserSession>((resolve, reject) => {
      user.getSession((error: Error | null, session: CognitoUserSession | null) => {
        if (error || !session) reject(toAuthError(error));
        else resolve(session);
      });
    });
  }

  /** Runs one sign-in call and turns the library's callbacks into the next step. */
  private runChallenge(
    user: CognitoUser,
    start: (callbacks: IAuthenticationCallback) => void,
    keepOnFailure = false,
  ): Promise<SignInResult> {
    return new Promise<SignInResult>((resolve, reject) => {
      const fail = (error: unknown) => {
        reject(toAuthError(error));
      };
      const callbacks: IAuthenticationCallback = {
        // The library has confirmed a new device (ConfirmDevice) when the pool asks the user.
        onSuccess: (session, userConfirmationNecessary) => {
          this.pending = null;
          resolve({
            step: 'DONE',
            session: toSession(user.getUsername(), session),
            deviceConfirmed: userConfirmationNecessary === true,
          });
        },
        onFailure: (error) => {
          // Progress is reset on failure, except that a refused code may be retried while
          // the challenge session lives (Cognito answers NotAuthorized once it has ended).
          if (!keepOnFailure || toAuthError(error).code === 'NotAuthorizedException') this.pending = null;
          fail(error);
        },
        totpRequired: () => resolve({ step: 'CONFIRM_SIGN_IN_WITH_TOTP_CODE' }),
        mfaSetup: () => resolve({ step: 'CONTINUE_SIGN_IN_WITH_TOTP_SETUP' }),
        newPasswordRequired: () => resolve({ step: 'CONFIRM_SIGN_IN_WITH_NEW_PASSWORD_REQUIRED' }),
        // The pool offers TOTP only; answer a selection prompt with it.
        selectMFAType: () => user.sendMFASelectionAnswer('SOFTWARE_TOKEN_MFA', callbacks),
        mfaRequired: () => fail(new AuthError('No valid MFA method provided', 'InvalidMfaMethod')),
        customChallenge: () => fail(new AuthError('Invalid MFA type', 'UnsupportedChallenge')),
      };
      start(callbacks);
    });
  }
}

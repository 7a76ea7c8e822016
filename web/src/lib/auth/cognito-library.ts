/**
 * What the session service (cognito-service.ts) uses of amazon-cognito-identity-js beyond its
 * typed API: its client for calls it does not make itself (the MFA_SETUP answer that keeps the
 * new device; passkey-sign-in.ts), its SRP helper and its end of a sign-in.
 */
import * as identity from 'amazon-cognito-identity-js';
import type { CognitoUser, CognitoUserPool, IAuthenticationCallback } from 'amazon-cognito-identity-js';
import { toAuthError } from './types.ts';

const TOTP_DEVICE_NAME = 'Authenticator app';

type Callback = (error: unknown, data?: Record<string, unknown>) => void;

/** The parts of the library's user object the MFA_SETUP answer below uses (not in its typings). */
export interface LibraryUser {
  Session: string | null;
  username: string;
  client: { request(operation: string, params: Record<string, unknown>, callback: Callback): void };
  authenticateUserInternal(result: Record<string, unknown>, helper: unknown, callback: IAuthenticationCallback): void;
}

/** The library's SRP helper (exported, not typed); it derives the new device's verifier. */
export const AuthenticationHelper = (identity as unknown as { AuthenticationHelper: new (poolName: string) => unknown })
  .AuthenticationHelper;

/**
 * Answers the MFA_SETUP challenge of a sign-in after the new authenticator's code. The library's
 * own answer (verifySoftwareToken) keeps the tokens but drops NewDeviceMetadata, leaving the
 * sign-in's device unconfirmed; where the pool tracks devices, a refresh needs the confirmed
 * device of its sign-in (docs/local-mode.md, "Remembered devices in local mode"), so the session would end
 * at its first refresh. The same two calls are made here, and the result goes to the library's
 * end of a sign-in, which confirms the new device (ConfirmDevice) and keeps its key, as after a
 * sign-in with a code.
 */
export function answerMfaSetup(
  user: CognitoUser,
  pool: CognitoUserPool,
  code: string,
  callbacks: IAuthenticationCallback,
): void {
  const internals = user as unknown as LibraryUser;
  internals.client.request(
    'VerifySoftwareToken',
    { Session: internals.Session, UserCode: code, FriendlyDeviceName: TOTP_DEVICE_NAME },
    (error, verified) => {
      if (error) return callbacks.onFailure(error);
      internals.Session = String(verified?.Session ?? '');
      const request = {
        ChallengeName: 'MFA_SETUP',
        ClientId: pool.getClientId(),
        ChallengeResponses: { USERNAME: internals.username },
        Session: internals.Session,
      };
      internals.client.request('RespondToAuthChallenge', request, (respondError, result) => {
        if (respondError || !result) return callbacks.onFailure(respondError);
        internals.authenticateUserInternal(result, new AuthenticationHelper(pool.getUserPoolName()), callbacks);
      });
    },
  );
}

/**
 * Makes TOTP the enabled, preferred factor with the new session's access token. Cognito may
 * leave the user's MFA setting list empty after the MFA_SETUP challenge until a preference is
 * set, and the MFA page reads that list. The user is signed in either way, so a failure is
 * only logged.
 */
export function preferTotp(user: CognitoUser): Promise<void> {
  return new Promise<void>((resolve) => {
    user.setUserMfaPreference(null, { PreferredMfa: true, Enabled: true }, (error) => {
      if (error) console.warn('Could not set the authenticator as the preferred MFA method:', toAuthError(error).code);
      resolve();
    });
  });
}

import type { CognitoUser } from 'amazon-cognito-identity-js';
import { toAuthError, type AuthError } from './types.ts';

/**
 * Remembered devices of the signed-in user on amazon-cognito-identity-js: remembering this
 * browser right after a sign-in (UpdateDeviceStatus, with the sign-in's own token), and this
 * browser's device key. Loaded only when used, apart from the sign-in's own scripts. Each
 * function takes the user from `CognitoAuthService.signedInUserWithDevice()`.
 */

const callbacks = (resolve: () => void, reject: (error: AuthError) => void) => ({
  onSuccess: () => resolve(),
  onFailure: (error: unknown) => reject(toAuthError(error)),
});

/** Remembers this browser: its next sign-ins skip the code. */
export function rememberDevice(user: CognitoUser): Promise<void> {
  return new Promise<void>((resolve, reject) => user.setDeviceStatusRemembered(callbacks(resolve, reject)));
}

/**
 * This browser's device key, or none: the key the library keeps for the signed-in user. Listing
 * and forgetting go through the portal's MFA function, because a token from a refresh cannot
 * call Cognito's device operations (it lacks the admin scope).
 */
export function currentDeviceKey(user: CognitoUser): string | null {
  return (user as unknown as { deviceKey?: string | null }).deviceKey ?? null;
}

/** After this browser's device was forgotten, its key and secret are dropped here too. */
export function dropDeviceSecret(user: CognitoUser): void {
  (user as unknown as { clearCachedDeviceKeyAndPassword(): void }).clearCachedDeviceKeyAndPassword();
}

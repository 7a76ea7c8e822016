/** A signed-in session as the screens see it. */
export interface AuthSession {
  /** Cognito username (the account's sub; sign-in is by email). */
  readonly username: string;
  /** The login identifier, from the ID token. */
  readonly email: string;
  /** `cognito:groups` of the access token. */
  readonly groups: readonly string[];
  readonly accessToken: string;
  readonly idToken: string;
  /** Epoch ms when the first of the access and ID tokens expires (clock drift applied). */
  readonly expiresAt: number;
}

/**
 * Next step of a sign-in, named as in the user-portal spec (section 4). `deviceConfirmed` is
 * true when the sign-in confirmed this browser as a new device that the user may now choose
 * to remember (device tracking "only remembered on user prompt").
 */
export type SignInResult =
  | { readonly step: 'DONE'; readonly session: AuthSession; readonly deviceConfirmed?: boolean }
  | { readonly step: 'CONFIRM_SIGN_IN_WITH_TOTP_CODE' }
  | { readonly step: 'CONTINUE_SIGN_IN_WITH_TOTP_SETUP' }
  | { readonly step: 'CONFIRM_SIGN_IN_WITH_NEW_PASSWORD_REQUIRED' };

/** A device the identity provider tracks for the signed-in user. */
export interface RememberedDevice {
  readonly key: string;
  /** The browser's name as the device reported it (its user agent). */
  readonly name: string;
  /** Epoch ms of the last sign-in from it. */
  readonly lastUsed: number;
  readonly remembered: boolean;
  /** This browser. */
  readonly current: boolean;
}

export interface SignUpResult {
  readonly isSignUpComplete: boolean;
  readonly userId: string;
  /** Where the confirmation was sent (masked by the identity provider). */
  readonly destination?: string;
}

/**
 * One authenticator enrolment: get a secret, then prove a code from it. Implemented against
 * Cognito during sign-in and against the MFA function for a signed-in user.
 */
export interface MfaSetupDriver {
  /** The TOTP secret; it goes only to the QR code drawn in the browser and the manual key. */
  associate(): Promise<string>;
  verify(code: string): Promise<void>;
}

/** An identity-provider failure with its exception name (e.g. NotAuthorizedException). */
export class AuthError extends Error {
  override readonly name = 'AuthError';
  constructor(
    message: string,
    readonly code: string,
  ) {
    super(message);
  }
}

/**
 * The code of a refresh the identity provider refused because the device this browser's
 * sign-in was made on is no longer a confirmed device of the account (forgotten): Cognito
 * answers NotAuthorizedException "Invalid Refresh Token" to a refresh naming it.
 */
export const DEVICE_REFUSED_CODE = 'DeviceForgotten';
export const INVALID_REFRESH_TOKEN_MESSAGE = 'Invalid Refresh Token';

export const ALREADY_SIGNED_IN_MESSAGE = 'There is already a signed in user.';
const NETWORK_ERROR_MESSAGE = 'A network error has occurred.';
const UNKNOWN_ERROR_MESSAGE = 'An unknown error has occurred.';

/** Turns whatever the identity library rejected with into an AuthError. */
export function toAuthError(error: unknown): AuthError {
  if (error instanceof AuthError) return error;
  if (error && typeof error === 'object') {
    const { code, name, message } = error as { code?: unknown; name?: unknown; message?: unknown };
    const exception = typeof code === 'string' ? code : typeof name === 'string' ? name : 'UnknownError';
    if (exception === 'NetworkError') return new AuthError(NETWORK_ERROR_MESSAGE, exception);
    if (typeof message === 'string' && message) return new AuthError(message, exception);
  }
  return new AuthError(UNKNOWN_ERROR_MESSAGE, 'UnknownError');
}

import { AuthError } from '#web/lib/auth/types.ts';

/** Which portal a sign-in is for; it decides the groups and the wording. */
export type Privilege = 'user' | 'admin';

export const accessDeniedMessage = (privilege: Privilege) => `Access denied. You don't have ${privilege} privileges.`;

export const privilegeCheckAfterSetupMessage = (privilege: Privilege) =>
  `Error verifying ${privilege} privileges after MFA setup.`;

export const SIGN_IN_MESSAGES = {
  disabled: 'Your account has been disabled. Please contact your administrator.',
  alreadySignedIn: 'You are already signed in. Please sign out first or refresh the page.',
  confirmSignUp: 'Please confirm your email address before signing in.',
  fallback: 'An error occurred during sign-in.',
  newPassword: 'Please set a new password.',
  mfaFailed: 'MFA verification failed. Please try again.',
  setupTotpFailed: 'Failed to setup TOTP',
  setupFailed: 'MFA setup failed. Please try again.',
} as const;

/** The user portal's sign-in form labels (section 2, User sign-in). */
export const USER_SIGN_IN_LABELS = {
  email: 'Username (email)',
  password: 'Password',
  submit: 'Log In',
  busy: 'Logging In...',
} as const;

export interface SignInProblem {
  readonly message: string;
  /** The 'already signed in' case, which offers Sign Out & Try Again and Refresh Page. */
  readonly alreadySignedIn: boolean;
}

/** The user-portal error catalogue (section 8, User sign-in). */
export function signInProblem(error: unknown): SignInProblem {
  const message = error instanceof Error ? error.message : '';
  const code = error instanceof AuthError ? error.code : '';
  if (/disabled/i.test(message)) return { message: SIGN_IN_MESSAGES.disabled, alreadySignedIn: false };
  if (message.includes('already a signed in user')) {
    return { message: SIGN_IN_MESSAGES.alreadySignedIn, alreadySignedIn: true };
  }
  if (code === 'UserNotConfirmedException') return { message: SIGN_IN_MESSAGES.confirmSignUp, alreadySignedIn: false };
  return { message: message || SIGN_IN_MESSAGES.fallback, alreadySignedIn: false };
}

export const hasAnyGroup = (groups: readonly string[], required: readonly string[]) =>
  required.some((group) => groups.includes(group));

/** Fixed settings of the local pool: those of the CDK user pool and Cognito's defaults. */
export const POOL = {
  /** Cognito keeps a sign-in's challenge session for 3 minutes by default. */
  authSessionMs: 3 * 60_000,
  /** Sign-up confirmation links and codes: 24 hours; password reset codes: 1 hour. */
  signUpCodeMs: 24 * 60 * 60_000,
  passwordResetCodeMs: 60 * 60_000,
  temporaryPasswordMs: 7 * 24 * 60 * 60_000,
  /** Wrong passwords tolerated before the account locks, the first lock and its cap. */
  lockout: { freeFailures: 5, firstLockMs: 1_000, maxLockMs: 15 * 60_000, forgetAfterMs: 15 * 60_000 },
  /** Wrong codes tolerated per code, and code emails per account per hour. */
  codeAttempts: 5,
  codeDeliveriesPerHour: 5,
  /** Wrong MFA codes tolerated in one sign-in session. */
  mfaAttemptsPerSession: 5,
  emailSender: 'no-reply@verificationemail.com',
  groups: [
    { name: 'Admins', precedence: 0, description: 'Administrators of the portal' },
    { name: 'Users', precedence: 1, description: 'Users of the portal' },
  ],
  /** Flows the app client allows. */
  authFlows: ['USER_SRP_AUTH', 'USER_PASSWORD_AUTH', 'REFRESH_TOKEN_AUTH', 'REFRESH_TOKEN'],
} as const;

/** Standard attributes a user pool knows; `sub` and the username never change. */
export const STANDARD_ATTRIBUTES = new Set([
  'address', 'birthdate', 'email', 'email_verified', 'family_name', 'gender', 'given_name', 'locale',
  'middle_name', 'name', 'nickname', 'phone_number', 'phone_number_verified', 'picture',
  'preferred_username', 'profile', 'updated_at', 'website', 'zoneinfo',
]);

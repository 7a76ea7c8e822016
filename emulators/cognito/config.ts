import { COGNITO_DEFAULT_SENDER } from '../shared/cognito-sender.ts';

/** Fixed settings of the local pool: those of the CDK user pool and Cognito's defaults. */
export const POOL = {
  /** Cognito keeps a sign-in's challenge session for 3 minutes by default. */
  authSessionMs: 3 * 60_000,
  /** Sign-up confirmation links and codes: 24 hours; password reset codes: 1 hour. */
  signUpCodeMs: 24 * 60 * 60_000,
  passwordResetCodeMs: 60 * 60_000,
  /** Codes that verify a new or changed email address: 24 hours. */
  attributeCodeMs: 24 * 60 * 60_000,
  /** Wrong passwords tolerated before the account locks, the first lock and its cap. */
  lockout: { freeFailures: 5, firstLockMs: 1_000, maxLockMs: 15 * 60_000, forgetAfterMs: 15 * 60_000 },
  /** Wrong codes tolerated per code, and code emails per account per hour. */
  codeAttempts: 5,
  codeDeliveriesPerHour: 5,
  /** Wrong MFA codes tolerated in one sign-in session. */
  mfaAttemptsPerSession: 5,
  emailSender: COGNITO_DEFAULT_SENDER,
  /**
   * StartWebAuthnRegistration's options carry `"timeout": 60000` (the AWS CLI's example of
   * start-web-authn-registration); the registration challenge lasts that long.
   */
  passkeyRegistrationMs: 60_000,
  /** The passkey request options of a WEB_AUTHN challenge last as long as the sign-in session. */
  passkeySignInMs: 3 * 60_000,
  /**
   * Passkeys a user may register. CompleteWebAuthnRegistration documents LimitExceededException
   * but no number (API_CompleteWebAuthnRegistration.html, Errors); local mode stops at 20, one page of
   * ListWebAuthnCredentials (MaxResults 0 to 20), and the portal's MFA page offers no more.
   */
  passkeysPerUser: 20,
} as const;

/** `ExplicitAuthFlows` values of a Cognito app client (CreateUserPoolClient). */
type ExplicitAuthFlow =
  | 'ALLOW_USER_SRP_AUTH'
  | 'ALLOW_REFRESH_TOKEN_AUTH'
  | 'ALLOW_USER_PASSWORD_AUTH'
  | 'ALLOW_ADMIN_USER_PASSWORD_AUTH'
  | 'ALLOW_CUSTOM_AUTH'
  | 'ALLOW_USER_AUTH';

/** The pool's one app client, as the caller defines it (CreateUserPoolClient). */
export interface AppClientSettings {
  readonly explicitAuthFlows: readonly ExplicitAuthFlow[];
  /** `PreventUserExistenceErrors`: true = ENABLED, false = LEGACY. */
  readonly preventUserExistenceErrors: boolean;
  /** Token lifetimes when the emulator's options give none. */
  readonly defaultTokenValidity: {
    readonly accessTokenMinutes: number;
    readonly idTokenMinutes: number;
    readonly refreshTokenDays: number;
  };
}

/** A group a new pool starts with (CreateGroup's GroupName, Precedence and Description). */
export interface GroupDefinition {
  readonly name: string;
  readonly precedence?: number;
  readonly description?: string;
}

/** The explicit auth flow of the app client that permits each InitiateAuth flow. */
const PERMITTED_BY: Readonly<Record<string, ExplicitAuthFlow>> = {
  USER_SRP_AUTH: 'ALLOW_USER_SRP_AUTH',
  USER_PASSWORD_AUTH: 'ALLOW_USER_PASSWORD_AUTH',
  REFRESH_TOKEN_AUTH: 'ALLOW_REFRESH_TOKEN_AUTH',
  REFRESH_TOKEN: 'ALLOW_REFRESH_TOKEN_AUTH',
  CUSTOM_AUTH: 'ALLOW_CUSTOM_AUTH',
  USER_AUTH: 'ALLOW_USER_AUTH',
  ADMIN_USER_PASSWORD_AUTH: 'ALLOW_ADMIN_USER_PASSWORD_AUTH',
  ADMIN_NO_SRP_AUTH: 'ALLOW_ADMIN_USER_PASSWORD_AUTH',
};

export function clientAllowsFlow(client: AppClientSettings, flow: string): boolean {
  const needed = PERMITTED_BY[flow];
  return needed !== undefined && client.explicitAuthFlows.includes(needed);
}

/** Standard attributes a user pool knows; `sub` and the username never change. */
export const STANDARD_ATTRIBUTES = new Set([
  'address',
  'birthdate',
  'email',
  'email_verified',
  'family_name',
  'gender',
  'given_name',
  'locale',
  'middle_name',
  'name',
  'nickname',
  'phone_number',
  'phone_number_verified',
  'picture',
  'preferred_username',
  'profile',
  'updated_at',
  'website',
  'zoneinfo',
]);

/** The attributes whose changes a pool can hold until they are verified (VerifiedAttributeType). */
export type VerifiedAttribute = 'email' | 'phone_number';

/**
 * The pool's UserAttributeUpdateSettings.AttributesRequireVerificationBeforeUpdate, checked: the
 * local pool sends email only, so it can hold back changes of `email` only.
 */
export function checkedVerifiedAttributes(attributes: readonly VerifiedAttribute[]): readonly VerifiedAttribute[] {
  const unsupported = attributes.filter((attribute) => attribute !== 'email');
  if (unsupported.length > 0) {
    throw new Error(`The local user pool cannot verify ${unsupported.join(', ')} before an update: it sends no SMS`);
  }
  return [...attributes];
}

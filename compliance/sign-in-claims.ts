import { isRecord, type TemplateResource } from './template.ts';

/**
 * The sign-in statements of the evidence pack and of the pool's acknowledgements, computed
 * from the settings (the configuration when the stack is built, the template when the report
 * reads it), so a statement never claims more than the pool does.
 */

export interface SignInSettings {
  /** `MfaConfiguration`: ON, OPTIONAL or OFF. */
  readonly mfa: string;
  /** Device tracking on: a device the user chose to remember skips the MFA code. */
  readonly rememberDevices: boolean;
  readonly selfSignUp: boolean;
  readonly passwordMinLength: number;
  /** Cognito threat protection enforced (Plus plan, full function). */
  readonly threatProtection: boolean;
  /** Access token lifetime, when known. */
  readonly accessTokenMinutes?: number;
}

export const signInSettings = (settings: SignInSettings): SignInSettings => settings;

const at = (value: unknown, ...path: string[]): unknown =>
  path.reduce<unknown>((node, key) => (isRecord(node) ? node[key] : undefined), value);

/** The settings of a user pool resource as the template holds them. */
export function signInSettingsOf(pool: TemplateResource): SignInSettings {
  const p = pool.Properties ?? {};
  const device = p.DeviceConfiguration;
  const length = at(p, 'Policies', 'PasswordPolicy', 'MinimumLength');
  return {
    mfa: typeof p.MfaConfiguration === 'string' ? p.MfaConfiguration : 'OFF',
    // Cognito remembers devices when tracking is on; "on user prompt" only when the user ticks the box.
    rememberDevices:
      isRecord(device) &&
      (device.ChallengeRequiredOnNewDevice === true || device.DeviceOnlyRememberedOnUserPrompt === true),
    selfSignUp: at(p, 'AdminCreateUserConfig', 'AllowAdminCreateUserOnly') !== true,
    passwordMinLength: typeof length === 'number' ? length : Number(length ?? 8),
    threatProtection: at(p, 'UserPoolAddOns', 'AdvancedSecurityMode') === 'ENFORCED',
  };
}

/** What a sign-in needs besides the password. */
export function mfaStatement(s: SignInSettings): string {
  if (s.mfa === 'OFF') return 'Sign-in needs the password only: MFA is off.';
  const base =
    s.mfa === 'ON'
      ? 'Every account must set up an authenticator app (TOTP MFA is required).'
      : 'MFA is optional: only accounts that set up an authenticator app are asked for a code.';
  return s.rememberDevices
    ? `${base} A sign-in asks for the code, except from a device the user chose to remember after a sign-in with a code: sign-ins from a remembered device need the password only, until the user or an administrator forgets the device (config rememberDevices).`
    : `${base} Every sign-in asks for the code; no device is remembered (config rememberDevices is off).`;
}

export function signUpStatement(s: SignInSettings): string {
  return s.selfSignUp
    ? 'Self sign-up is on: anyone can create an account at /signup; the account must confirm its email and lands in the Users group, which sees only the dashboards an administrator assigns to it (config selfSignUp).'
    : "Self sign-up is off: accounts exist only by an administrator's invitation (config selfSignUp).";
}

export function passwordStatement(s: SignInSettings): string {
  return `Passwords need at least ${s.passwordMinLength} characters with a lowercase and an uppercase letter, a digit and a symbol (config passwordMinLength).`;
}

function threatProtectionStatement(s: SignInSettings): string {
  return s.threatProtection
    ? 'Cognito threat protection is on in full-function mode (Plus feature plan): Cognito scores each sign-in, challenges or blocks risky ones and refuses compromised credentials (config threatProtection).'
    : 'Cognito threat protection is off (Essentials feature plan): no adaptive authentication or compromised-credential detection (config threatProtection).';
}

/** All sign-in statements, in reading order. */
export function signInStatements(s: SignInSettings): string[] {
  return [mfaStatement(s), passwordStatement(s), signUpStatement(s), threatProtectionStatement(s)];
}

/**
 * The reason the pool accepts cdk-nag's threat protection finding (AwsSolutions-COG8) while threat protection is off.
 */
export function threatProtectionReason(s: SignInSettings): string {
  const mfa =
    s.mfa === 'ON'
      ? s.rememberDevices
        ? 'every account must pass a time-based one-time password (TOTP) second factor, except at sign-ins from a device the user chose to remember after a sign-in with a code'
        : 'every sign-in of every account must pass a time-based one-time password (TOTP) second factor'
      : 'accounts that set up an authenticator app pass a TOTP second factor';
  return [
    `The Plus feature plan adds adaptive authentication and compromised-credential detection at a per-user monthly charge; this deployment runs without it (config threatProtection is false). Instead ${mfa};`,
    `only a token of a sign-in of the last ${s.accessTokenMinutes ?? 5} minutes can change the authenticator (refreshed tokens lack the aws.cognito.signin.user.admin scope), a password reset ends every session, the pool returns no user-existence errors and revokes tokens on sign-out, and administrators can disable accounts at once.`,
    `${passwordStatement(s)} ${signUpStatement(s)}`,
    'Setting threatProtection to true turns on the Plus plan in full-function mode and resolves this finding.',
  ].join(' ');
}

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
  /** Present when passkeys (WEB_AUTHN) are an allowed first factor. */
  readonly passkeys?: PasskeySettings;
}

export interface PasskeySettings {
  /** `WebAuthnFactorConfiguration`: SINGLE_FACTOR (Cognito's default) or MULTI_FACTOR_WITH_USER_VERIFICATION. */
  readonly factorConfiguration: string;
  /** `WebAuthnUserVerification`: required, or preferred (Cognito's default). */
  readonly userVerification: string;
}

export const signInSettings = (settings: SignInSettings): SignInSettings => settings;

const at = (value: unknown, ...path: string[]): unknown =>
  path.reduce<unknown>((node, key) => (isRecord(node) ? node[key] : undefined), value);

/** The first factors a pool resource allows (Policies.SignInPolicy.AllowedFirstAuthFactors; PASSWORD when unset). */
export function firstFactorsOf(pool: TemplateResource): string[] {
  const factors = at(pool.Properties, 'Policies', 'SignInPolicy', 'AllowedFirstAuthFactors');
  return Array.isArray(factors) ? factors.map(String) : ['PASSWORD'];
}

/** The passkey settings of a user pool resource, when passkeys are a first factor, with Cognito's defaults. */
export function passkeySettingsOf(pool: TemplateResource): PasskeySettings | undefined {
  if (!firstFactorsOf(pool).includes('WEB_AUTHN')) return undefined;
  const p = pool.Properties ?? {};
  return {
    factorConfiguration:
      typeof p.WebAuthnFactorConfiguration === 'string' ? p.WebAuthnFactorConfiguration : 'SINGLE_FACTOR',
    userVerification: typeof p.WebAuthnUserVerification === 'string' ? p.WebAuthnUserVerification : 'preferred',
  };
}

/**
 * The rule of the portal's pack (compliance/portal-checks.ts): passkeys may be a first factor only
 * where a passkey sign-in counts as MFA and the passkey must verify the user.
 */
export const passkeysCountAsMfa = (passkeys: PasskeySettings): boolean =>
  passkeys.factorConfiguration === 'MULTI_FACTOR_WITH_USER_VERIFICATION' && passkeys.userVerification === 'required';

/** The settings of a user pool resource as the template holds them. */
export function signInSettingsOf(pool: TemplateResource): SignInSettings {
  const p = pool.Properties ?? {};
  const device = p.DeviceConfiguration;
  const length = at(p, 'Policies', 'PasswordPolicy', 'MinimumLength');
  const passkeys = passkeySettingsOf(pool);
  return {
    mfa: typeof p.MfaConfiguration === 'string' ? p.MfaConfiguration : 'OFF',
    // Cognito remembers devices when tracking is on; "on user prompt" only when the user ticks the box.
    rememberDevices:
      isRecord(device) &&
      (device.ChallengeRequiredOnNewDevice === true || device.DeviceOnlyRememberedOnUserPrompt === true),
    selfSignUp: at(p, 'AdminCreateUserConfig', 'AllowAdminCreateUserOnly') !== true,
    passwordMinLength: typeof length === 'number' ? length : Number(length ?? 8),
    threatProtection: at(p, 'UserPoolAddOns', 'AdvancedSecurityMode') === 'ENFORCED',
    ...(passkeys && { passkeys }),
  };
}

/** What a sign-in needs besides the password. */
export function mfaStatement(s: SignInSettings): string {
  if (s.mfa === 'OFF') return 'Sign-in needs the password only: MFA is off.';
  const base =
    s.mfa === 'ON'
      ? 'Every account must set up an authenticator app (TOTP MFA is required).'
      : 'MFA is optional: only accounts that set up an authenticator app are asked for a code.';
  // With passkeys, only sign-ins with the password go through the code step.
  const signIn = s.passkeys ? 'sign-in with the password' : 'sign-in';
  return s.rememberDevices
    ? `${base} A ${signIn} asks for the code, except from a device the user chose to remember after a sign-in with a code: sign-ins from a remembered device need the password only, until the user or an administrator forgets the device (config rememberDevices).`
    : `${base} Every ${signIn} asks for the code; no device is remembered (config rememberDevices is off).`;
}

/** How passkeys sign in, if they do. */
export function passkeyStatement(s: SignInSettings): string {
  if (!s.passkeys) return 'Passkeys are off: every account signs in with its password (config passkeys).';
  const settings = `WebAuthnFactorConfiguration ${s.passkeys.factorConfiguration}, WebAuthnUserVerification ${s.passkeys.userVerification}`;
  return passkeysCountAsMfa(s.passkeys)
    ? `Passkeys are on (config passkeys): an account may register passkeys and sign in with one instead of the password and the code. The passkey must verify the user (PIN or biometric), and Cognito counts such a sign-in as multi-factor (${settings}).`
    : `Passkeys are a first factor that does not count as MFA (${settings}): a sign-in with a passkey needs no second factor.`;
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
  return [mfaStatement(s), passkeyStatement(s), passwordStatement(s), signUpStatement(s), threatProtectionStatement(s)];
}

/**
 * The reason the pool accepts cdk-nag's threat protection finding (AwsSolutions-COG8) while threat protection is off.
 */
export function threatProtectionReason(s: SignInSettings): string {
  const passkeys = !s.passkeys
    ? ''
    : passkeysCountAsMfa(s.passkeys)
      ? ', or use a passkey that verifies the user (PIN or biometric), which Cognito counts as both factors'
      : ', unless it uses a passkey (a single factor in this pool, which needs none)';
  const mfa =
    s.mfa === 'ON'
      ? s.rememberDevices
        ? `every account must pass a time-based one-time password (TOTP) second factor${passkeys}, except at sign-ins from a device the user chose to remember after a sign-in with a code`
        : `every sign-in of every account must pass a time-based one-time password (TOTP) second factor${passkeys}`
      : 'accounts that set up an authenticator app pass a TOTP second factor';
  return [
    `The Plus feature plan adds adaptive authentication and compromised-credential detection at a per-user monthly charge; this deployment runs without it (config threatProtection is false). Instead ${mfa};`,
    `only a token of a sign-in of the last ${s.accessTokenMinutes ?? 5} minutes can change the authenticator (refreshed tokens lack the aws.cognito.signin.user.admin scope), a password reset ends every session, the pool returns no user-existence errors and revokes tokens on sign-out, and administrators can disable accounts at once.`,
    `${passwordStatement(s)} ${signUpStatement(s)}`,
    'Setting threatProtection to true turns on the Plus plan in full-function mode and resolves this finding.',
  ].join(' ');
}

/**
 * The pool's passkey settings (WebAuthnConfiguration) and first factors (SignInPolicy), checked at
 * start as Cognito checks them when a pool is created or updated, and the origins a WebAuthn
 * ceremony may come from.
 */

/** `SignInPolicy.AllowedFirstAuthFactors` values (AuthFactorType, SOFTWARE_TOKEN excluded). */
export type FirstAuthFactor = 'PASSWORD' | 'WEB_AUTHN' | 'EMAIL_OTP' | 'SMS_OTP';

/** The pool's WebAuthnConfiguration. */
export interface WebAuthnSettings {
  readonly relyingPartyId: string;
  readonly userVerification: 'required' | 'preferred';
  readonly factorConfiguration: 'SINGLE_FACTOR' | 'MULTI_FACTOR_WITH_USER_VERIFICATION';
}

/** The passkey settings the operations read. */
export interface PasskeyPool extends WebAuthnSettings {
  /** The origins the harness named; undefined when any origin of the relying party may be used. */
  readonly origins: readonly string[] | undefined;
}

/**
 * A relying party ID is a domain (WebAuthn's RP ID, "a valid domain string"): lowercase labels,
 * no scheme, port or path, not an IP address; WebAuthnConfigurationType.RelyingPartyId is 1 to 127
 * characters long.
 */
const LABEL = '[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?';
const DOMAIN = new RegExp(`^${LABEL}(?:\\.${LABEL})*$`);

function checkedRelyingPartyId(id: string): string {
  if (id.length < 1 || id.length > 127 || !DOMAIN.test(id) || /^[0-9.]+$/.test(id)) {
    throw new Error(
      `webAuthn.relyingPartyId must be a domain name such as 'localhost' or 'auth.example.com', got '${id}'`,
    );
  }
  return id;
}

/**
 * Whether an origin may run a ceremony for the relying party. Cognito's API reference judges the
 * origin against the relying party ID alone: WebAuthnOriginNotAllowedException is "thrown when the
 * passkey credential's registration origin does not align with the user pool relying party id"
 * (https://docs.aws.amazon.com/cognito-user-identity-pools/latest/APIReference/API_CompleteWebAuthnRegistration.html).
 * The app client's callback URLs play no part (they govern OAuth redirects, and the passkey
 * operations name no app client). Aligned means WebAuthn's rule: the origin's host is the relying
 * party ID or a subdomain of it, over https, or over http for localhost, which browsers treat as a
 * secure context.
 */
function originAlignsWith(relyingPartyId: string, origin: string): boolean {
  let url: URL;
  try {
    url = new URL(origin);
  } catch {
    return false;
  }
  if (url.origin !== origin) return false;
  const host = url.hostname;
  const local = host === 'localhost' || host.endsWith('.localhost');
  if (url.protocol !== 'https:' && !(url.protocol === 'http:' && local)) return false;
  return host === relyingPartyId || host.endsWith(`.${relyingPartyId}`);
}

/**
 * Whether a ceremony's origin (clientDataJSON.origin) is allowed: it aligns with the relying party
 * and, where the harness named the site's origins, is one of them.
 */
export function originAllowed(pool: PasskeyPool, origin: string): boolean {
  if (!originAlignsWith(pool.relyingPartyId, origin)) return false;
  return pool.origins === undefined || pool.origins.includes(origin);
}

export interface PasskeyOptions {
  webAuthn?: WebAuthnSettings;
  allowedFirstAuthFactors?: readonly FirstAuthFactor[];
  webAuthnOrigins?: readonly string[];
}

const FACTORS: readonly FirstAuthFactor[] = ['PASSWORD', 'WEB_AUTHN', 'EMAIL_OTP', 'SMS_OTP'];

/**
 * The pool's first factors and passkey settings, refused where Cognito refuses them. The local pool
 * requires MFA (TOTP), so WEB_AUTHN as a first factor needs passkeys that count as MFA: AWS answers
 * such a pool with SINGLE_FACTOR "Cannot set WebAuthn factor configuration to SINGLE_FACTOR if MFA is
 * required and WebAuthn is an allowed first auth factor". Email and SMS one-time passwords are not
 * implemented here (the pool sends no SMS), so they are refused rather than silently ignored.
 */
export function checkedPasskeyOptions(options: PasskeyOptions): {
  webAuthn?: PasskeyPool;
  allowedFirstAuthFactors: readonly FirstAuthFactor[];
} {
  const factors = options.allowedFirstAuthFactors ?? ['PASSWORD'];
  if (factors.length === 0) throw new Error('allowedFirstAuthFactors must name at least one factor');
  for (const factor of factors) {
    if (!FACTORS.includes(factor)) throw new Error(`Not a first auth factor: ${String(factor)}`);
    if (factor === 'EMAIL_OTP' || factor === 'SMS_OTP') {
      throw new Error(`The local user pool does not implement ${factor} sign-in`);
    }
  }
  const settings = options.webAuthn;
  if (factors.includes('WEB_AUTHN') && !settings) {
    throw new Error('WEB_AUTHN is an allowed first auth factor but the pool has no webAuthn settings (relying party)');
  }
  // Without passkey settings no ceremony runs, so the site's origins have nothing to allow.
  if (!settings) return { allowedFirstAuthFactors: [...new Set(factors)] };
  const relyingPartyId = checkedRelyingPartyId(settings.relyingPartyId);
  if (!['required', 'preferred'].includes(settings.userVerification)) {
    throw new Error(`webAuthn.userVerification must be 'required' or 'preferred', got '${settings.userVerification}'`);
  }
  if (!['SINGLE_FACTOR', 'MULTI_FACTOR_WITH_USER_VERIFICATION'].includes(settings.factorConfiguration)) {
    throw new Error(`Not a WebAuthn factor configuration: ${settings.factorConfiguration}`);
  }
  if (settings.factorConfiguration === 'SINGLE_FACTOR' && factors.includes('WEB_AUTHN')) {
    throw new Error(
      'Cannot set WebAuthn factor configuration to SINGLE_FACTOR if MFA is required and WebAuthn is an allowed first auth factor',
    );
  }
  for (const origin of options.webAuthnOrigins ?? []) {
    if (!originAlignsWith(relyingPartyId, origin)) {
      throw new Error(`The WebAuthn origin ${origin} does not align with the relying party ID ${relyingPartyId}`);
    }
  }
  return {
    webAuthn: {
      relyingPartyId,
      userVerification: settings.userVerification,
      factorConfiguration: settings.factorConfiguration,
      origins: options.webAuthnOrigins === undefined ? undefined : [...options.webAuthnOrigins],
    },
    allowedFirstAuthFactors: [...new Set(factors)],
  };
}

/**
 * The sign-in screens' field rules as plain data: their messages (spec), patterns and limits.
 * This module has no dependencies, so the sign-in screens use the rules without loading the
 * schema library; `fields.ts` builds the shared zod schemas from the same values, and
 * `messages.ts` holds the other forms' messages.
 */

/**
 * The messages of the sign-in screens' own checks (spec): the part of `MESSAGES`
 * (`messages.ts`) that the sign-in page's scripts carry.
 */
export const SIGN_IN_FIELD_MESSAGES = {
  emailRequired: 'Email address is required.',
  emailInvalid: 'Invalid email address',
  passwordRequired: 'Password is required.',
  passwordMin: 'Password must be at least 8 characters',
  mfaCode: 'Please enter a valid 6-digit code',
} as const;

/** Cognito caps email-style usernames well below this; the cap keeps bodies small. */
export const MAX_EMAIL_LENGTH = 254;

/**
 * Why an address is refused, for the `reason` of a 400 (the forms show the spec's message).
 * The email is the Cognito user name and the QuickSight user name, which becomes part of an
 * ARN that IAM policies match: `*` and `?` are IAM wildcards, `$` starts a policy variable,
 * `/` is the ARN path separator, and QuickSight takes only Latin-1 printable user names.
 */
export const EMAIL_PROBLEMS = {
  tooLong: `An email address has at most ${MAX_EMAIL_LENGTH} characters`,
  hidden: 'An email address cannot contain spaces, control characters or invisible formatting characters',
  shape: 'An email address has one @ between a name and a domain, like name@example.com',
  name: "The part before @ may contain only letters, digits and . _ % + - ' ! # & = ^ ` | ~, at most 64 characters with no dot at either end or two in a row",
  domain:
    'The part after @ must be a domain name like example.com: labels of letters, digits and hyphens, ending in a top-level domain of letters',
} as const;

/** Control, format (bidi overrides, zero-width), separator and other invisible characters. */
const HIDDEN_CHARACTER = /[\s\p{Cc}\p{Cf}\p{Zl}\p{Zp}\p{Co}\p{Cn}]/u;
/** Dot-separated atoms of RFC 5322 `atext`, without the characters the ARN note above refuses. */
const LOCAL_PART = /^[\w!#%&'+=^`|~-]+(?:\.[\w!#%&'+=^`|~-]+)*$/;
/** DNS labels (RFC 1035) and a top-level domain of letters. */
const DOMAIN = /^(?:[a-z\d](?:[a-z\d-]{0,61}[a-z\d])?\.)+[a-z]{2,63}$/i;

/**
 * The one email rule of the SPA and the server (sign-in, sign-up, admin forms, contact, every
 * request naming an account): undefined for an acceptable address, otherwise why not.
 * Length is checked first so no pattern ever runs over a long input.
 */
export function emailAddressProblem(email: string): string | undefined {
  if (email.length > MAX_EMAIL_LENGTH) return EMAIL_PROBLEMS.tooLong;
  if (HIDDEN_CHARACTER.test(email)) return EMAIL_PROBLEMS.hidden;
  const at = email.lastIndexOf('@');
  if (at <= 0 || at === email.length - 1) return EMAIL_PROBLEMS.shape;
  const local = email.slice(0, at);
  if (local.length > 64 || !LOCAL_PART.test(local))
    return local.includes('@') ? EMAIL_PROBLEMS.shape : EMAIL_PROBLEMS.name;
  return DOMAIN.test(email.slice(at + 1)) ? undefined : EMAIL_PROBLEMS.domain;
}

/** Keeps digits only and truncates to six, as every MFA code input does while typing. */
export const sanitizeMfaCode = (value: string) => value.replace(/\D/g, '').slice(0, 6);

/** Six digits, nothing else. */
export const MFA_CODE_PATTERN = /^\d{6}$/;

/** Sign-in and sign-up password length (the identity provider enforces the full policy). */
const PASSWORD_MIN_LENGTH = 8;

/**
 * The user portal's email rule as a plain function (required, then shape), so the sign-in
 * page can check it without a schema library; `auth-forms.ts` builds its schema from it.
 */
export function signInEmailProblem(value: string): string | undefined {
  const email = value.trim();
  if (!email) return SIGN_IN_FIELD_MESSAGES.emailRequired;
  if (emailAddressProblem(email) !== undefined) return SIGN_IN_FIELD_MESSAGES.emailInvalid;
  return undefined;
}

/** The sign-in, sign-up and reset password rule: required, then at least 8 characters. */
export function signInPasswordProblem(value: string): string | undefined {
  if (!value) return SIGN_IN_FIELD_MESSAGES.passwordRequired;
  if (value.length < PASSWORD_MIN_LENGTH) return SIGN_IN_FIELD_MESSAGES.passwordMin;
  return undefined;
}

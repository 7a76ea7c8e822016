/**
 * Field rules as plain data: the exact messages of the specs, patterns and limits. This
 * module has no dependencies, so the sign-in screens can use the rules without loading
 * the full schema library; `fields.ts` builds the shared zod schemas from the same values.
 */
export const MESSAGES = {
  emailRequired: 'Email address is required.',
  emailInvalid: 'Invalid email address',
  passwordRequired: 'Password is required.',
  passwordMin: 'Password must be at least 8 characters',
  confirmRequired: 'Please confirm your password.',
  passwordsMustMatch: 'Passwords must match',
  codeRequired: 'Verification code is required',
  mfaCode: 'Please enter a valid 6-digit code',
  contactEmail: 'Email is a required field',
  contactSubject: 'Subject is a required field',
  contactDescription: 'Description is a required field',
  adminEmailRequired: 'Email is required',
  adminEmailInvalid: 'Please enter a valid email address',
  adminPasswordRequired: 'Password is required',
  adminPasswordMin: 'Password must be at least 8 characters long',
  adminPasswordLower: 'Password must contain at least one lowercase letter',
  adminPasswordUpper: 'Password must contain at least one uppercase letter',
  adminPasswordNumber: 'Password must contain at least one number',
  adminPasswordSpecial: 'Password must contain at least one special character (!@#$%^&*)',
  userEmailRequired: 'User email is required.',
  selectUserToRegister: 'Please select a user to register.',
  selectDashboard: 'Please select at least one dashboard.',
  dashboardIdRequired: 'Dashboard ID is required',
  dashboardNameRequired: 'Dashboard Name is required',
  dashboardLinkRequired: 'Dashboard Link is required',
  dashboardLinkInvalid: 'Dashboard Link must be an http(s) URL',
  dashboardIdTaken: 'This dashboard ID already exists. Please use a different ID.',
} as const;

export const dashboardIdExistsMessage = (dashboardId: string) =>
  `Dashboard ID "${dashboardId}" already exists. Please use a different ID.`;

/** Cognito caps email-style usernames well below this; the cap keeps bodies small. */
export const MAX_EMAIL_LENGTH = 254;

/** The admin portal's "simple pattern": text, @, text, dot, text. */
export const SIMPLE_EMAIL_PATTERN = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/** Keeps digits only and truncates to six, as every MFA code input does while typing. */
export const sanitizeMfaCode = (value: string) => value.replace(/\D/g, '').slice(0, 6);

export const SPECIAL_CHARACTERS = '!@#$%^&*';

/** Password requirements of the admin's Create User form, in display order. */
export const PASSWORD_REQUIREMENTS = [
  { label: 'At least 8 characters', message: MESSAGES.adminPasswordMin, test: (p: string) => p.length >= 8 },
  { label: 'One lowercase letter', message: MESSAGES.adminPasswordLower, test: (p: string) => /[a-z]/.test(p) },
  { label: 'One uppercase letter', message: MESSAGES.adminPasswordUpper, test: (p: string) => /[A-Z]/.test(p) },
  { label: 'One number', message: MESSAGES.adminPasswordNumber, test: (p: string) => /\d/.test(p) },
  {
    label: `One special character (${SPECIAL_CHARACTERS})`,
    message: MESSAGES.adminPasswordSpecial,
    test: (p: string) => /[!@#$%^&*]/.test(p),
  },
] as const;

/** Six digits, nothing else. */
export const MFA_CODE_PATTERN = /^\d{6}$/;

/** Sign-in and sign-up password length (the identity provider enforces the full policy). */
export const PASSWORD_MIN_LENGTH = 8;

/**
 * The user portal's email rule as a plain function (required, then shape), so the sign-in
 * page can check it without a schema library; `auth-forms.ts` builds its schema from it.
 */
export function signInEmailProblem(value: string): string | undefined {
  const email = value.trim();
  if (!email) return MESSAGES.emailRequired;
  if (email.length > MAX_EMAIL_LENGTH || !SIMPLE_EMAIL_PATTERN.test(email)) return MESSAGES.emailInvalid;
  return undefined;
}

/** The sign-in, sign-up and reset password rule: required, then at least 8 characters. */
export function signInPasswordProblem(value: string): string | undefined {
  if (!value) return MESSAGES.passwordRequired;
  if (value.length < PASSWORD_MIN_LENGTH) return MESSAGES.passwordMin;
  return undefined;
}

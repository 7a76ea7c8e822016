import { z } from 'zod';

/**
 * Field rules with the exact messages of the specs. The SPA's forms and the handlers'
 * request schemas are built from these, so a rule cannot differ between browser and server.
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

/** Sign-in and sign-up email of the user portal. */
export const signInEmail = z
  .string()
  .trim()
  .min(1, MESSAGES.emailRequired)
  .max(MAX_EMAIL_LENGTH, MESSAGES.emailInvalid)
  .regex(SIMPLE_EMAIL_PATTERN, MESSAGES.emailInvalid);

/** The sign-in forms only ask for length; the identity provider enforces the policy. */
export const signInPassword = z.string().min(1, MESSAGES.passwordRequired).min(8, MESSAGES.passwordMin);

/** Digits only, exactly six. */
export const mfaCode = z.string().regex(/^\d{6}$/, MESSAGES.mfaCode);

/** Keeps digits only and truncates to six, as every MFA code input does while typing. */
export const sanitizeMfaCode = (value: string) => value.replace(/\D/g, '').slice(0, 6);

/** Admin-side email of a target account. */
export const adminEmail = z
  .string()
  .trim()
  .min(1, MESSAGES.adminEmailRequired)
  .max(MAX_EMAIL_LENGTH, MESSAGES.adminEmailInvalid)
  .regex(SIMPLE_EMAIL_PATTERN, MESSAGES.adminEmailInvalid);

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

/** Full password rules for accounts an admin creates or updates. */
export const strongPassword = z
  .string()
  .min(1, MESSAGES.adminPasswordRequired)
  .max(256, 'Password must be at most 256 characters')
  .superRefine((value, ctx) => {
    for (const rule of PASSWORD_REQUIREMENTS) {
      if (!rule.test(value)) {
        ctx.addIssue({ code: 'custom', message: rule.message });
        return;
      }
    }
  });

/** Only http(s) links may be stored: they are opened in a new tab. */
export const dashboardLink = z
  .string()
  .trim()
  .min(1, MESSAGES.dashboardLinkRequired)
  .max(2048, MESSAGES.dashboardLinkInvalid)
  .refine((value) => {
    try {
      const url = new URL(value);
      return url.protocol === 'https:' || url.protocol === 'http:';
    } catch {
      return false;
    }
  }, MESSAGES.dashboardLinkInvalid);

/** QuickSight dashboard ids: letters, digits, hyphen and underscore, up to 512. */
export const dashboardId = z
  .string()
  .trim()
  .min(1, MESSAGES.dashboardIdRequired)
  .max(512, 'Dashboard ID must be at most 512 characters')
  .regex(/^[\w-]+$/, 'Dashboard ID may contain only letters, digits, hyphens and underscores');

export const dashboardName = z
  .string()
  .trim()
  .min(1, MESSAGES.dashboardNameRequired)
  .max(200, 'Dashboard Name must be at most 200 characters');

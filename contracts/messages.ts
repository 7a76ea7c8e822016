/**
 * The form messages of the specs, the admin password checklist, and the catalogue's duplicate-ID
 * message: the rules the sign-in page does not need, kept out of its scripts. The sign-in
 * screens' messages are in `rules.ts`; `MESSAGES` holds them too, so forms and schemas name
 * every message from one object.
 */
import { SIGN_IN_FIELD_MESSAGES } from './rules.ts';

export const MESSAGES = {
  ...SIGN_IN_FIELD_MESSAGES,
  confirmRequired: 'Please confirm your password.',
  passwordsMustMatch: 'Passwords must match',
  codeRequired: 'Verification code is required',
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

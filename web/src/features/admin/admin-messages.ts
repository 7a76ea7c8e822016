import type { Highlight } from '#web/components/layout/auth-layout.tsx';

/** Texts of the admin sign-in screens (admin-portal §2 and §4). */
export const ADMIN_SIGN_IN_TEXTS = {
  submit: 'Admin Login',
  busy: 'Signing In...',
  forgotPassword: 'Forgot Password?',
  unsupportedStep: 'Sign-in failed. Please check your credentials.',
  redirect: 'Redirecting to the admin portal...',
} as const;

/** What the admin portal gives, on its public pages. */
export const ADMIN_HIGHLIGHTS: readonly Highlight[] = [
  ['Accounts', 'Create users, reset passwords and authenticators, enable and disable access.'],
  ['Dashboards', 'Keep the catalogue and decide who sees which dashboard.'],
  ['Activity', 'Every admin action recorded, with who, when and the outcome.'],
];

export const adminPortalTitle = (productName: string) => `${productName} Admin Portal`;
export const adminLoginSubtitle = (productName: string) => `Administrative access to ${productName} platform`;

/** Texts of the admin sign-in screens (admin-portal §2 and §4). */
export const ADMIN_SIGN_IN_TEXTS = {
  submit: 'Admin Login',
  busy: 'Signing In...',
  forgotPassword: 'Forgot Password?',
  unsupportedStep: 'Sign-in failed. Please check your credentials.',
  redirect: 'Redirecting to the admin portal...',
} as const;

export const adminPortalTitle = (productName: string) => `${productName} Admin Portal`;
export const adminLoginSubtitle = (productName: string) => `Administrative access to ${productName} platform`;

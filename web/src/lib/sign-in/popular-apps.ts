/** Authenticator apps the MFA screens recommend. */
export const POPULAR_AUTHENTICATOR_APPS = [
  'Google Authenticator',
  'Microsoft Authenticator',
  'Authy',
  '1Password',
] as const;

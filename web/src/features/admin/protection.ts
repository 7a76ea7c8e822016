/**
 * Who may be disabled, deleted or have their authenticator reset (admin-portal §6, and the
 * Reset MFA action). The server refuses the same cases; the portal only mirrors them so the
 * buttons are disabled with a reason.
 */
export const ADMINS_GROUP = 'Admins';

export const PROTECTED_ACTIONS = {
  disable: { self: 'Cannot disable your own account', admin: 'Cannot disable other admin accounts' },
  delete: { self: 'Cannot delete your own account', admin: 'Cannot delete other admin accounts' },
  resetMfa: { self: 'Cannot reset MFA for your own account', admin: 'Cannot reset MFA for other admin accounts' },
} as const;

export type ProtectedAction = keyof typeof PROTECTED_ACTIONS;

export interface ProtectionTarget {
  readonly email: string;
  readonly isAdmin: boolean;
}

export const sameEmail = (a: string, b: string) => a.trim().toLowerCase() === b.trim().toLowerCase();

/** Why the signed-in admin may not do this to the account, or null when allowed. */
export function blockedReason(action: ProtectedAction, target: ProtectionTarget, signedInEmail: string): string | null {
  if (sameEmail(target.email, signedInEmail)) return PROTECTED_ACTIONS[action].self;
  if (target.isAdmin) return PROTECTED_ACTIONS[action].admin;
  return null;
}

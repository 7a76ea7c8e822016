import { PROTECTED_OPERATIONS, type ProtectedOperation } from '#contracts/user-admin.ts';

/**
 * Who may be updated, disabled, deleted or have their authenticator reset (admin-portal §6,
 * and the actions beyond it). The server refuses the same cases with the same words; the
 * portal only mirrors them so the buttons are disabled with a reason.
 */
export type ProtectedAction = ProtectedOperation;

export interface ProtectionTarget {
  readonly email: string;
  readonly isAdmin: boolean;
}

const sameEmail = (a: string, b: string) => a.trim().toLowerCase() === b.trim().toLowerCase();

/** Why the signed-in admin may not do this to the account, or null when allowed. */
export function blockedReason(action: ProtectedAction, target: ProtectionTarget, signedInEmail: string): string | null {
  if (sameEmail(target.email, signedInEmail)) return PROTECTED_OPERATIONS[action].self;
  if (target.isAdmin) return PROTECTED_OPERATIONS[action].admin;
  return null;
}

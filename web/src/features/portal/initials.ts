/**
 * Avatar initials from the login identifier (spec section 2): when the part before the
 * at-sign contains a dot, underscore or hyphen, the first letter of each segment; otherwise
 * the first letter of that part. Upper case.
 */
export function avatarInitials(loginId: string): string {
  const local = loginId.split('@')[0] ?? '';
  if (/[._-]/.test(local)) {
    return local
      .split(/[._-]/)
      .filter(Boolean)
      .map((segment) => segment.charAt(0).toUpperCase())
      .join('');
  }
  return local.charAt(0).toUpperCase();
}

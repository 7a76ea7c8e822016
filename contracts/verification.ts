/**
 * The temporary accounts of `npm run verify-deployment`: portal-verify-<run id>-admin@example.com
 * and portal-verify-<run id>-user@example.com, the run id being a base-36 time and six hex
 * digits. example.com is reserved (RFC 2606) and receives no mail, so nobody can sign up with
 * such an address; only an administrator (or the tool, with administrator credentials) makes one.
 * The functions mark what these accounts leave (audit entries, view events) as verification and
 * send their support messages to the support sender instead of the support recipient.
 */
export const VERIFY_PREFIX = 'portal-verify-';

const VERIFICATION_ACCOUNT = /^portal-verify-[0-9a-z]{1,12}-[0-9a-f]{6}-(admin|user)@example\.com$/;

export const isVerificationAccount = (email: string): boolean => VERIFICATION_ACCOUNT.test(email.trim().toLowerCase());

/**
 * The admin portal's error catalogue (admin-portal §8) as pure functions: what a failed call
 * or identity-provider step shows. The sign-in messages shared with the user portal live
 * in lib/sign-in/sign-in-messages.ts.
 */
import { NO_TOKEN_MESSAGE } from '#contracts/errors.ts';
import { ApiError } from '#web/lib/api.ts';
import { AuthError } from '#web/lib/auth/types.ts';

export const ADMIN_FAILURES = {
  loadCognitoUsers: 'Failed to load Cognito users. Please try again.',
  loadUsers: 'Failed to load users. Please try again.',
  loadUserDashboards: 'Failed to load dashboards for user',
  removeFromDashboard: 'Failed to remove user from dashboard',
  setDefault: 'Failed to set dashboard as default',
  loadDashboards: 'Failed to load dashboards',
  deleteDashboard: 'Failed to delete dashboard',
  saveDashboard: 'Failed to save dashboard',
  deleteUser: 'Failed to delete user',
  registerUser: 'Failed to register user',
  createUser: 'Failed to create user',
  updateUser: 'Failed to update user',
  invite: 'Failed to invite',
  enableUser: 'Failed to enable user',
  disableUser: 'Failed to disable user',
  resetMfa: 'Failed to reset MFA',
  loadUserFactors: 'Failed to load the sign-in methods',
  promote: 'Failed to make the user an admin',
  loadActivity: 'Failed to load the activity log',
  resendInvitation: 'Failed to resend the invitation',
  importUsers: 'Failed to import users',
  loadCompanies: 'Failed to load companies',
  saveCompany: 'Failed to save company',
  deleteCompany: 'Failed to delete company',
  checkCompanyAccess: 'Failed to check company access',
  fixCompanyAccess: 'Failed to fix company access',
  setUserCompanies: 'Failed to set the company',
  createCompanies: 'Failed to create the companies',
  loadSubscriptions: 'Failed to load subscriptions',
  sendSubscriptionNow: 'Failed to send the subscription now',
  cancelSubscription: 'Failed to cancel the subscription',
} as const;

/** A failed action as a page shows it: what failed, then the details line by line. */
export interface Failure {
  readonly title: string;
  readonly lines: readonly string[];
}

const DUPLICATE_DASHBOARD_ID = 'Dashboard ID already exists. Please use a different ID.';

/** The user-management translation table (§8). */
const USER_MANAGEMENT_TEXTS = {
  userExists: 'A user with this email already exists',
  invalidEmail: 'Please enter a valid email address',
  signInAgain: 'Please log in again to continue',
  forbidden: "You don't have permission to perform this action",
  notFound: 'User not found',
  serverError: 'Server error. Please try again later',
  unexpected: 'An unexpected error occurred',
} as const;

/** The update translation (§8). */
const UPDATE_USER_TEXTS = {
  emailInUse: 'This email address is already in use by another user',
  notFound: 'User not found. Please refresh and try again',
  weakPassword: 'Password does not meet the security requirements.',
} as const;

const FORGOT_PASSWORD_TEXTS = {
  noAccount: 'No account found with this email address.',
  invalidEmail: 'Invalid email address format.',
  tooManyRequests: 'Too many requests. Please try again later.',
  fallback: 'Failed to send reset email. Please try again.',
} as const;

const RESET_PASSWORD_FALLBACK = 'Failed to reset password. Please try again.';

/** The message a failure carries: the server's text for a call, the message otherwise. */
export function failureMessage(error: unknown): string {
  if (error instanceof ApiError) return error.error;
  if (error instanceof Error) return error.message;
  return '';
}

/** The server's text (or 'HTTP {status}: {statusText}'), else the screen's fallback. */
export const failureText = (error: unknown, fallback: string) => failureMessage(error) || fallback;

/**
 * A failed QuickSight registration: the message, then one line per detail the server gave
 * (Reason, Suggestion, User Email, Missing Environment Variables).
 */
function registrationFailureLines(error: unknown): string[] {
  const lines = [failureText(error, ADMIN_FAILURES.registerUser)];
  if (!(error instanceof ApiError)) return lines;
  if (error.reason) lines.push(`Reason: ${error.reason}`);
  if (error.suggestion) lines.push(`Suggestion: ${error.suggestion}`);
  if (error.userEmail) lines.push(`User Email: ${error.userEmail}`);
  if (error.missing && error.missing.length > 0)
    lines.push(`Missing Environment Variables: ${error.missing.join(', ')}`);
  return lines;
}

/** A failed call under the screen's heading for it, with the server's text as detail. */
export function actionFailure(title: string, error: unknown): Failure {
  const message = failureMessage(error);
  return { title, lines: message ? [message] : [] };
}

/** A failed registration: 'Failed to register user', then the message and its details. */
export const registrationFailure = (error: unknown): Failure => ({
  title: ADMIN_FAILURES.registerUser,
  lines: registrationFailureLines(error),
});

/** True when the error text was made up from the status line (the body had none). */
const isStatusLineOnly = (error: ApiError) => error.error === `HTTP ${error.status}: ${error.statusText}`;

/** Saving a catalogue entry: a duplicate ID gives the server's message or the standard one. */
export function saveDashboardFailure(error: unknown): Failure {
  if (error instanceof ApiError && error.status === 409) {
    return { title: isStatusLineOnly(error) ? DUPLICATE_DASHBOARD_ID : error.error, lines: [] };
  }
  return actionFailure(ADMIN_FAILURES.saveDashboard, error);
}

const isNoTokenFailure = (error: ApiError) => error.error === NO_TOKEN_MESSAGE || error.status === 401;

/** The user-management translation table (§8), in its order. */
export function userManagementErrorText(error: unknown): string {
  const message = failureMessage(error);
  if (message.includes('User already exists')) return USER_MANAGEMENT_TEXTS.userExists;
  if (message.includes('Invalid email')) return USER_MANAGEMENT_TEXTS.invalidEmail;
  if (message.includes('Password')) return message;
  if (error instanceof ApiError) {
    if (isNoTokenFailure(error)) return USER_MANAGEMENT_TEXTS.signInAgain;
    if (error.status === 403) return USER_MANAGEMENT_TEXTS.forbidden;
    if (error.status === 404) return USER_MANAGEMENT_TEXTS.notFound;
    if (error.status === 500) return USER_MANAGEMENT_TEXTS.serverError;
  }
  return message || USER_MANAGEMENT_TEXTS.unexpected;
}

/** The update translation first, then the user-management table. */
export function updateUserErrorText(error: unknown): string {
  const message = failureMessage(error);
  if (message.includes('Email already exists')) return UPDATE_USER_TEXTS.emailInUse;
  if (message.includes('User not found')) return UPDATE_USER_TEXTS.notFound;
  if (message.includes('Invalid password')) return UPDATE_USER_TEXTS.weakPassword;
  return userManagementErrorText(error);
}

/** 'Failed to delete user {email}: {reason}.' */
export function deleteUserFailureText(email: string, error: unknown): string {
  const reason = userManagementErrorText(error).replace(/\.+$/, '');
  return `${ADMIN_FAILURES.deleteUser} ${email}: ${reason}.`;
}

/** The admin forgot-password step, by the identity provider's exception name. */
export function forgotPasswordErrorText(error: unknown): string {
  const code = error instanceof AuthError ? error.code : '';
  switch (code) {
    case 'UserNotFoundException':
      return FORGOT_PASSWORD_TEXTS.noAccount;
    case 'InvalidParameterException':
      return FORGOT_PASSWORD_TEXTS.invalidEmail;
    case 'LimitExceededException':
      return FORGOT_PASSWORD_TEXTS.tooManyRequests;
    default:
      return FORGOT_PASSWORD_TEXTS.fallback;
  }
}

/** The admin reset step: the provider's message, or the standard text. */
export const resetPasswordErrorText = (error: unknown) => failureText(error, RESET_PASSWORD_FALLBACK);

/** The alert after a catalogue edit. */
export function dashboardUpdatedText(updatedUserAssignments: number | undefined): string {
  const count = updatedUserAssignments ?? 0;
  return count > 0
    ? `Dashboard updated successfully! Updated for ${count} user(s).`
    : 'Dashboard updated successfully!';
}

/**
 * The refusal of an assignment that would show a dashboard that is not company-scoped to
 * another company (COMPANY_MESSAGES.notScoped, answered with 409). It can be repeated with
 * the admin's confirmation of shared data.
 */
export const isNotScopedRefusal = (error: unknown): error is ApiError =>
  error instanceof ApiError && error.status === 409 && error.error.includes('is not company-scoped');

/** The result line of an invite batch. */
export function inviteSummaryText(succeeded: number, failed: number): string {
  const summary = `Successfully assigned ${succeeded} dashboard(s)`;
  return failed > 0 ? `${summary}, ${failed} failed` : summary;
}

/**
 * The heading of an invite batch's results: the spec's summary when something was assigned,
 * an error when nothing was (never "Successfully assigned 0 dashboard(s)").
 */
export function inviteOutcome(
  succeeded: number,
  failed: number,
): { readonly tone: 'success' | 'warning' | 'error'; readonly title: string } {
  if (failed === 0) return { tone: 'success', title: inviteSummaryText(succeeded, 0) };
  if (succeeded > 0) return { tone: 'warning', title: inviteSummaryText(succeeded, failed) };
  return {
    tone: 'error',
    title:
      failed === 1
        ? `${ADMIN_FAILURES.invite}: the dashboard was not assigned`
        : `${ADMIN_FAILURES.invite}: none of the ${failed} dashboards was assigned`,
  };
}

/** What the server said beyond its message (Reason, Suggestion), one line each. */
export function failureDetailLines(error: unknown): string[] {
  if (!(error instanceof ApiError)) return [];
  const lines: string[] = [];
  if (error.reason) lines.push(`Reason: ${error.reason}`);
  if (error.suggestion) lines.push(`Suggestion: ${error.suggestion}`);
  return lines;
}

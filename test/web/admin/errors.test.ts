import { describe, expect, it } from 'vitest';
import { NO_TOKEN_MESSAGE } from '#contracts/errors.ts';
import {
  actionFailure,
  dashboardUpdatedText,
  deleteUserFailureText,
  failureText,
  forgotPasswordErrorText,
  inviteSummaryText,
  registrationFailure,
  resetPasswordErrorText,
  saveDashboardFailure,
  updateUserErrorText,
  userManagementErrorText,
} from '#web/features/admin/errors.ts';
import { ApiError } from '#web/lib/api.ts';
import { AuthError } from '#web/lib/auth/types.ts';
import { apiError } from './support.tsx';

describe('call failures (admin-portal §8)', () => {
  it("shows the server's text, or the status line the client made when the body had none", () => {
    expect(failureText(apiError(400, 'Dashboard ID is required'), 'Failed to save dashboard')).toBe(
      'Dashboard ID is required',
    );
    expect(
      failureText(new ApiError({ status: 502, statusText: 'Bad Gateway', error: 'HTTP 502: Bad Gateway' }), 'x'),
    ).toBe('HTTP 502: Bad Gateway');
    expect(failureText('not an error', 'Failed to load dashboards')).toBe('Failed to load dashboards');
  });

  it('puts the screen heading over the detail', () => {
    expect(
      actionFailure(
        'Failed to remove user from dashboard',
        apiError(404, 'This dashboard is not assigned to the user'),
      ),
    ).toEqual({
      title: 'Failed to remove user from dashboard',
      lines: ['This dashboard is not assigned to the user'],
    });
    expect(actionFailure('Failed to delete dashboard', null)).toEqual({
      title: 'Failed to delete dashboard',
      lines: [],
    });
  });

  it('lists Reason, Suggestion, User Email and Missing Environment Variables of a registration failure', () => {
    const failure = registrationFailure(
      apiError(500, 'The function is not fully configured', {
        reason: 'Missing environment variables: QUICKSIGHT_ACCOUNT_ID',
        suggestion: 'Set the missing variables in the function configuration and deploy again.',
        userEmail: 'jane@example.com',
        missing: ['QUICKSIGHT_ACCOUNT_ID', 'QUICKSIGHT_NAMESPACE'],
      }),
    );
    expect(failure).toEqual({
      title: 'Failed to register user',
      lines: [
        'The function is not fully configured',
        'Reason: Missing environment variables: QUICKSIGHT_ACCOUNT_ID',
        'Suggestion: Set the missing variables in the function configuration and deploy again.',
        'User Email: jane@example.com',
        'Missing Environment Variables: QUICKSIGHT_ACCOUNT_ID, QUICKSIGHT_NAMESPACE',
      ],
    });
    expect(registrationFailure(new Error('')).lines).toEqual(['Failed to register user']);
  });

  it('gives the server message for a duplicate dashboard ID, else the standard one', () => {
    expect(
      saveDashboardFailure(apiError(409, 'Dashboard ID "sales" already exists. Please use a different ID.')).title,
    ).toBe('Dashboard ID "sales" already exists. Please use a different ID.');
    expect(
      saveDashboardFailure(new ApiError({ status: 409, statusText: 'Conflict', error: 'HTTP 409: Conflict' })).title,
    ).toBe('Dashboard ID already exists. Please use a different ID.');
    expect(saveDashboardFailure(apiError(502, 'QuickSight failed'))).toEqual({
      title: 'Failed to save dashboard',
      lines: ['QuickSight failed'],
    });
  });
});

describe('user-management translation table', () => {
  it.each([
    [apiError(409, 'User already exists'), 'A user with this email already exists'],
    [apiError(400, 'Invalid email'), 'Please enter a valid email address'],
    [apiError(400, 'Password must contain at least one number'), 'Password must contain at least one number'],
    [apiError(401, NO_TOKEN_MESSAGE), 'Please log in again to continue'],
    [apiError(403, 'Cannot delete other admin accounts'), "You don't have permission to perform this action"],
    [apiError(404, 'Not here'), 'User not found'],
    [apiError(500, 'Internal server error'), 'Server error. Please try again later'],
    [apiError(502, 'Failed to create user'), 'Failed to create user'],
    [new Error(''), 'An unexpected error occurred'],
  ])('%s shows %s', (error, text) => {
    expect(userManagementErrorText(error)).toBe(text);
  });

  it('checks the message before the status', () => {
    expect(userManagementErrorText(apiError(500, 'Password does not conform to policy'))).toBe(
      'Password does not conform to policy',
    );
  });
});

describe('update translation', () => {
  it.each([
    [apiError(409, 'Email already exists'), 'This email address is already in use by another user'],
    [apiError(404, 'User not found'), 'User not found. Please refresh and try again'],
    [apiError(400, 'Invalid password'), 'Password does not meet the security requirements.'],
    [apiError(403, 'Forbidden'), "You don't have permission to perform this action"],
    [apiError(400, 'At least one field must be updated'), 'At least one field must be updated'],
  ])('%s shows %s', (error, text) => {
    expect(updateUserErrorText(error)).toBe(text);
  });
});

describe('delete failure', () => {
  it("reads 'Failed to delete user {email}: {reason}.'", () => {
    expect(deleteUserFailureText('jane@example.com', apiError(404, 'User not found'))).toBe(
      'Failed to delete user jane@example.com: User not found.',
    );
    expect(deleteUserFailureText('jane@example.com', apiError(409, 'Busy.'))).toBe(
      'Failed to delete user jane@example.com: Busy.',
    );
  });
});

describe('admin recovery', () => {
  it.each([
    ['UserNotFoundException', 'No account found with this email address.'],
    ['InvalidParameterException', 'Invalid email address format.'],
    ['LimitExceededException', 'Too many requests. Please try again later.'],
    ['CodeDeliveryFailureException', 'Failed to send reset email. Please try again.'],
  ])('forgot password: %s shows %s', (code, text) => {
    expect(forgotPasswordErrorText(new AuthError('whatever', code))).toBe(text);
  });

  it('reset: the message, or the standard text', () => {
    expect(
      resetPasswordErrorText(
        new AuthError('Invalid verification code provided, please try again.', 'CodeMismatchException'),
      ),
    ).toBe('Invalid verification code provided, please try again.');
    expect(resetPasswordErrorText(new AuthError('', 'UnknownError'))).toBe(
      'Failed to reset password. Please try again.',
    );
  });
});

describe('success texts', () => {
  it('names the users an edit reached, when there are any', () => {
    expect(dashboardUpdatedText(0)).toBe('Dashboard updated successfully!');
    expect(dashboardUpdatedText(undefined)).toBe('Dashboard updated successfully!');
    expect(dashboardUpdatedText(3)).toBe('Dashboard updated successfully! Updated for 3 user(s).');
  });

  it('sums up an invite batch', () => {
    expect(inviteSummaryText(2, 0)).toBe('Successfully assigned 2 dashboard(s)');
    expect(inviteSummaryText(1, 1)).toBe('Successfully assigned 1 dashboard(s), 1 failed');
  });
});

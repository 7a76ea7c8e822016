import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import ChangePasswordPage from '#web/features/auth/routes/change-password-page.tsx';
import SignUpPage from '#web/features/auth/routes/signup-page.tsx';
import VerifyResetCodePage from '#web/features/auth/routes/verify-reset-code-page.tsx';
import { AuthError } from '#web/lib/auth/types.ts';
import { fakeAuth, renderPage } from './support/render.tsx';

describe('sign-up page', () => {
  it('shows the required-field messages', async () => {
    const auth = fakeAuth();
    renderPage(<SignUpPage />, { auth, path: '/signup' });
    await userEvent.setup().click(screen.getByRole('button', { name: 'Create Account' }));
    expect(await screen.findByText('Email address is required.')).toBeInTheDocument();
    expect(screen.getByText('Password is required.')).toBeInTheDocument();
    expect(screen.getByText('Please confirm your password.')).toBeInTheDocument();
    expect(auth.signUp).not.toHaveBeenCalled();
  });

  it.each(['<script>x</script>@example.com', 'a/../../admin@x.co', '*@example.com', 'user@localhost'])(
    'refuses %s with the shared email rule',
    async (email) => {
      const auth = fakeAuth();
      renderPage(<SignUpPage />, { auth, path: '/signup' });
      const user = userEvent.setup();
      await user.type(screen.getByLabelText('Email'), email.replace(/[[{]/g, '$&$&'));
      await user.type(screen.getByLabelText('Password'), 'Secret#2026');
      await user.type(screen.getByLabelText('Confirm Password'), 'Secret#2026');
      await user.click(screen.getByRole('button', { name: 'Create Account' }));
      expect(await screen.findByText('Invalid email address')).toBeInTheDocument();
      expect(auth.signUp).not.toHaveBeenCalled();
    },
  );

  it('requires matching passwords', async () => {
    const auth = fakeAuth();
    renderPage(<SignUpPage />, { auth, path: '/signup' });
    const user = userEvent.setup();
    await user.type(screen.getByLabelText('Email'), 'new.user@example.com');
    await user.type(screen.getByLabelText('Password'), 'Secret#2026');
    await user.type(screen.getByLabelText('Confirm Password'), 'Secret#2027');
    await user.click(screen.getByRole('button', { name: 'Create Account' }));
    expect(await screen.findByText('Passwords must match')).toBeInTheDocument();
    expect(auth.signUp).not.toHaveBeenCalled();
  });

  it('shows Check Your Email after a sign-up that needs confirmation', async () => {
    const auth = fakeAuth({ signUp: vi.fn(async () => ({ isSignUpComplete: false, userId: 'sub-1' })) });
    renderPage(<SignUpPage />, { auth, path: '/signup' });
    const user = userEvent.setup();
    await user.type(screen.getByLabelText('Email'), 'new.user@example.com');
    await user.type(screen.getByLabelText('Password'), 'Secret#2026');
    await user.type(screen.getByLabelText('Confirm Password'), 'Secret#2026');
    await user.click(screen.getByRole('button', { name: 'Create Account' }));
    expect(await screen.findByRole('heading', { name: 'Check Your Email' })).toBeInTheDocument();
    expect(screen.getByText('new.user@example.com')).toBeInTheDocument();
    expect(screen.getByText(/Click the confirmation link/)).toBeInTheDocument();
    expect(auth.signUp).toHaveBeenCalledWith('new.user@example.com', 'Secret#2026');
    await user.click(screen.getByRole('button', { name: 'Back to Login' }));
    expect(screen.getByTestId('location')).toHaveTextContent('/login');
  });

  it.each([
    [new AuthError('User already exists', 'UsernameExistsException'), 'User already exists'],
    [new Error(''), 'An error occurred during sign-up.'],
  ])('shows the sign-up failure %s', async (failure, text) => {
    const auth = fakeAuth({ signUp: vi.fn(async () => Promise.reject(failure)) });
    renderPage(<SignUpPage />, { auth, path: '/signup' });
    const user = userEvent.setup();
    await user.type(screen.getByLabelText('Email'), 'new.user@example.com');
    await user.type(screen.getByLabelText('Password'), 'Secret#2026');
    await user.type(screen.getByLabelText('Confirm Password'), 'Secret#2026');
    await user.click(screen.getByRole('button', { name: 'Create Account' }));
    expect(await screen.findByText(text)).toBeInTheDocument();
  });

  it('links back to the sign-in page', () => {
    renderPage(<SignUpPage />, { path: '/signup' });
    expect(screen.getByRole('link', { name: 'Already have an account? Sign In' })).toHaveAttribute('href', '/login');
  });
});

describe('password reset request (/change-password)', () => {
  it('keeps Send Verification Code disabled while the email is empty', () => {
    renderPage(<ChangePasswordPage />, { path: '/change-password' });
    expect(screen.getByRole('button', { name: 'Send Verification Code' })).toBeDisabled();
  });

  it('refuses an address that is not one and sends nothing', async () => {
    const auth = fakeAuth({ forgotPassword: vi.fn(async () => undefined) });
    renderPage(<ChangePasswordPage />, { auth, path: '/change-password' });
    const user = userEvent.setup();
    await user.type(screen.getByLabelText('Email Address'), 'not-an-email');
    await user.click(screen.getByRole('button', { name: 'Send Verification Code' }));
    expect(await screen.findByText('Invalid email address')).toBeInTheDocument();
    expect(screen.getByLabelText('Email Address')).toHaveAttribute('aria-invalid', 'true');
    expect(auth.forgotPassword).not.toHaveBeenCalled();
    expect(screen.queryByText('Verification code sent to your email.')).not.toBeInTheDocument();
    expect(screen.getByTestId('location')).toHaveTextContent('/change-password');
  });

  it('sends the code, says so and continues at /verify-reset-code', async () => {
    const auth = fakeAuth({ forgotPassword: vi.fn(async () => undefined) });
    renderPage(<ChangePasswordPage />, { auth, path: '/change-password' });
    const user = userEvent.setup();
    await user.type(screen.getByLabelText('Email Address'), 'jane+ops@example.com');
    await user.click(screen.getByRole('button', { name: 'Send Verification Code' }));
    expect(await screen.findByText('Verification code sent to your email.')).toBeInTheDocument();
    // The toast is raised before the navigation, which React commits in a later render.
    await waitFor(() =>
      expect(screen.getByTestId('location')).toHaveTextContent('/verify-reset-code?email=jane%2Bops%40example.com'),
    );
    expect(auth.forgotPassword).toHaveBeenCalledWith('jane+ops@example.com');
  });

  it.each([
    [
      new AuthError('Attempt limit exceeded, please try after some time.', 'LimitExceededException'),
      'Attempt limit exceeded, please try after some time.',
    ],
    [new Error(''), 'Failed to initiate password reset.'],
  ])('shows the request failure %s under the button', async (failure, text) => {
    const auth = fakeAuth({ forgotPassword: vi.fn(async () => Promise.reject(failure)) });
    renderPage(<ChangePasswordPage />, { auth, path: '/change-password' });
    const user = userEvent.setup();
    await user.type(screen.getByLabelText('Email Address'), 'jane@example.com');
    await user.click(screen.getByRole('button', { name: 'Send Verification Code' }));
    expect(await screen.findByText(text)).toHaveClass('field-error');
    expect(screen.getByTestId('location')).toHaveTextContent('/change-password');
  });
});

describe('reset confirmation (/verify-reset-code)', () => {
  const path = '/verify-reset-code?email=jane%40example.com';

  it('names the address and checks the fields', async () => {
    const auth = fakeAuth();
    renderPage(<VerifyResetCodePage />, { auth, path });
    expect(
      screen.getByText('An email with a verification code has been sent to jane@example.com. Enter the code below:'),
    ).toBeInTheDocument();
    const user = userEvent.setup();
    await user.click(screen.getByRole('button', { name: 'Submit' }));
    expect(await screen.findByText('Verification code is required')).toBeInTheDocument();
    expect(screen.getByText('Password is required.')).toBeInTheDocument();
    await user.type(screen.getByLabelText('Password'), 'short');
    expect(await screen.findByText('Password must be at least 8 characters')).toBeInTheDocument();
    expect(auth.confirmForgotPassword).not.toHaveBeenCalled();
  });

  it('sets the new password and goes to /login', async () => {
    const auth = fakeAuth({ confirmForgotPassword: vi.fn(async () => undefined) });
    renderPage(<VerifyResetCodePage />, { auth, path });
    const user = userEvent.setup();
    await user.type(screen.getByLabelText('Code'), '123456');
    await user.type(screen.getByLabelText('Password'), 'Fresh#Pass2026');
    await user.click(screen.getByRole('button', { name: 'Submit' }));
    await waitFor(() => expect(screen.getByTestId('location')).toHaveTextContent('/login'));
    expect(auth.confirmForgotPassword).toHaveBeenCalledWith('jane@example.com', '123456', 'Fresh#Pass2026');
  });

  it('shows the confirmation failure', async () => {
    const auth = fakeAuth({
      confirmForgotPassword: vi.fn(async () =>
        Promise.reject(new AuthError('Invalid verification code provided, please try again.', 'CodeMismatchException')),
      ),
    });
    renderPage(<VerifyResetCodePage />, { auth, path });
    const user = userEvent.setup();
    await user.type(screen.getByLabelText('Code'), '000000');
    await user.type(screen.getByLabelText('Password'), 'Fresh#Pass2026');
    await user.click(screen.getByRole('button', { name: 'Submit' }));
    expect(await screen.findByText('Invalid verification code provided, please try again.')).toBeInTheDocument();
  });

  it('explains what to do when the link has no email', () => {
    renderPage(<VerifyResetCodePage />, { path: '/verify-reset-code' });
    expect(screen.getByRole('link', { name: 'Request a new verification code.' })).toHaveAttribute(
      'href',
      '/change-password',
    );
  });
});

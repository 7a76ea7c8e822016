export const RESET_MESSAGES = {
  codeSent: 'Verification code sent to your email.',
  requestFallback: 'Failed to initiate password reset.',
  confirmFallback: 'Failed to reset password. Please try again.',
  passwordReset: 'Your password has been reset. Sign in with your new password.',
} as const;

/** /verify-reset-code names the address the code went to. */
export const codeSentText = (email: string) =>
  `An email with a verification code has been sent to ${email}. Enter the code below:`;

import { useState } from 'react';
import { useAuth } from '#web/lib/auth/auth-context.ts';
import { ResetConfirmForm, ResetRequestForm } from '#web/components/sign-in/reset-forms.tsx';
import { useStepHeading } from '#web/components/sign-in/use-step-heading.ts';
import { forgotPasswordErrorText, resetPasswordErrorText } from '../errors.ts';

export interface AdminPasswordResetProps {
  /** The signed-in admin's address: prefilled and read-only. */
  readonly lockedEmail?: string;
  /** The password has been reset. */
  readonly onReset: () => void | Promise<void>;
}

const REQUEST_TEXTS = {
  labels: { email: 'Email' },
  submit: 'Send Reset Email',
  busy: 'Sending Reset Email...',
} as const;
const CONFIRM_TEXTS = {
  labels: { code: 'Verification Code', password: 'New Password' },
  submit: 'Reset Password',
  busy: 'Resetting Password...',
} as const;

/** The second step's heading; focus moves to it when the step appears. */
const CONFIRM_STEP_HEADING = 'Set a new password';

function ConfirmStepHeading() {
  const heading = useStepHeading('confirm');
  return (
    <h3 ref={heading} tabIndex={-1}>
      {CONFIRM_STEP_HEADING}
    </h3>
  );
}

/**
 * The admin recovery, on the user portal's reset forms: send a code to the address, then the
 * code and a new password under a heading of its own that takes the focus.
 */
export function AdminPasswordReset({ lockedEmail, onReset }: AdminPasswordResetProps) {
  const auth = useAuth();
  const [sentTo, setSentTo] = useState<string | null>(null);
  return sentTo === null ? (
    <ResetRequestForm
      texts={REQUEST_TEXTS}
      {...(lockedEmail === undefined ? {} : { lockedEmail })}
      errorText={forgotPasswordErrorText}
      onRequest={async (email) => {
        await auth.forgotPassword(email);
        setSentTo(email);
      }}
    />
  ) : (
    <div className="stack">
      <ConfirmStepHeading />
      <ResetConfirmForm
        email={sentTo}
        texts={CONFIRM_TEXTS}
        errorText={resetPasswordErrorText}
        onConfirm={async ({ code, password }) => {
          await auth.confirmForgotPassword(sentTo, code, password);
          await onReset();
        }}
      />
    </div>
  );
}

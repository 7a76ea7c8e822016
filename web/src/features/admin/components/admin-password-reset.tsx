import { useState } from 'react';
import {
  resetConfirmFormSchema,
  resetRequestFormSchema,
  type ResetConfirmForm,
  type ResetRequestForm,
} from '../../../../../contracts/auth-forms.ts';
import { Alert } from '../../../components/alert.tsx';
import { Button } from '../../../components/button.tsx';
import { TextField } from '../../../components/text-field.tsx';
import { useAuth } from '../../../lib/auth/auth-context.ts';
import { useSchemaForm } from '../../../lib/forms/use-schema-form.ts';
import { codeSentText } from '../../auth/reset-messages.ts';
import { forgotPasswordErrorText, resetPasswordErrorText } from '../errors.ts';

export interface AdminPasswordResetProps {
  /** The signed-in admin's address: prefilled and read-only. */
  readonly lockedEmail?: string;
  /** The password has been reset. */
  readonly onReset: () => void | Promise<void>;
}

function RequestStep({ lockedEmail, onSent }: { readonly lockedEmail?: string; readonly onSent: (email: string) => void }) {
  const auth = useAuth();
  const [error, setError] = useState<string | null>(null);
  const { field, handleSubmit, errors, isSubmitting } = useSchemaForm(resetRequestFormSchema, { email: lockedEmail ?? '' });

  const submit = async ({ email }: ResetRequestForm) => {
    setError(null);
    try {
      await auth.forgotPassword(email);
      onSent(email);
    } catch (failure) {
      setError(forgotPasswordErrorText(failure));
    }
  };

  return (
    <form className="stack" noValidate onSubmit={handleSubmit(submit)} onFocus={auth.preload}>
      {error && <Alert tone="error">{error}</Alert>}
      <TextField
        label="Email"
        type="email"
        autoComplete="username"
        readOnly={lockedEmail !== undefined}
        error={errors.email}
        {...field('email')}
      />
      <Button type="submit" block disabled={isSubmitting}>
        {isSubmitting ? 'Sending Reset Email...' : 'Send Reset Email'}
      </Button>
    </form>
  );
}

function ConfirmStep({ email, onReset }: { readonly email: string; readonly onReset: () => void | Promise<void> }) {
  const auth = useAuth();
  const [error, setError] = useState<string | null>(null);
  const { field, handleSubmit, errors, isSubmitting } = useSchemaForm(resetConfirmFormSchema, { code: '', password: '' });

  const submit = async ({ code, password }: ResetConfirmForm) => {
    setError(null);
    try {
      await auth.confirmForgotPassword(email, code, password);
    } catch (failure) {
      setError(resetPasswordErrorText(failure));
      return;
    }
    await onReset();
  };

  return (
    <form className="stack" noValidate onSubmit={handleSubmit(submit)}>
      <Alert tone="info">{codeSentText(email)}</Alert>
      {error && <Alert tone="error">{error}</Alert>}
      <TextField
        label="Verification Code"
        inputMode="numeric"
        autoComplete="one-time-code"
        error={errors.code}
        {...field('code')}
      />
      <TextField
        label="New Password"
        type="password"
        autoComplete="new-password"
        error={errors.password}
        {...field('password')}
      />
      <Button type="submit" block disabled={isSubmitting}>
        {isSubmitting ? 'Resetting Password...' : 'Reset Password'}
      </Button>
    </form>
  );
}

/** The admin recovery: send a code to the address, then the code and a new password. */
export function AdminPasswordReset({ lockedEmail, onReset }: AdminPasswordResetProps) {
  const [sentTo, setSentTo] = useState<string | null>(null);
  return sentTo === null ? (
    <RequestStep {...(lockedEmail === undefined ? {} : { lockedEmail })} onSent={setSentTo} />
  ) : (
    <ConfirmStep email={sentTo} onReset={onReset} />
  );
}

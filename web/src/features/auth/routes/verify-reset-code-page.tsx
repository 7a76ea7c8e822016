import { zodResolver } from '@hookform/resolvers/zod';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { resetConfirmFormSchema, type ResetConfirmForm } from '../../../../../contracts/auth-forms.ts';
import { paths } from '../../../app/paths.ts';
import { Alert } from '../../../components/alert.tsx';
import { Button } from '../../../components/button.tsx';
import { AuthLayout } from '../../../components/layout/auth-layout.tsx';
import { TextField } from '../../../components/text-field.tsx';
import { notify } from '../../../components/toaster.tsx';
import { useAuth } from '../../../lib/auth/auth-context.ts';
import { useConfig } from '../../../lib/config-context.tsx';
import { NewPasswordField } from '../components/new-password-field.tsx';
import { codeSentText, RESET_MESSAGES } from '../reset-messages.ts';

/** /verify-reset-code?email=...: the emailed code and the new password. */
export default function VerifyResetCodePage() {
  const { productName } = useConfig();
  const auth = useAuth();
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const email = params.get('email')?.trim() ?? '';
  const [error, setError] = useState<string | null>(null);
  const {
    register,
    handleSubmit,
    formState: { errors, isSubmitting },
  } = useForm<ResetConfirmForm>({ resolver: zodResolver(resetConfirmFormSchema), defaultValues: { code: '', password: '' } });

  const submit = async ({ code, password }: ResetConfirmForm) => {
    setError(null);
    try {
      await auth.confirmForgotPassword(email, code, password);
      notify.success(RESET_MESSAGES.passwordReset);
      navigate(paths.login);
    } catch (failure) {
      setError(failure instanceof Error && failure.message ? failure.message : RESET_MESSAGES.confirmFallback);
    }
  };

  return (
    <AuthLayout productTitle={productName}>
      <div className="stack">
        <h2>Reset Your Password</h2>
        {email ? (
          <>
            <p>{codeSentText(email)}</p>
            {error && <Alert tone="error">{error}</Alert>}
            <form className="stack" noValidate onSubmit={handleSubmit(submit)} onFocus={auth.preload}>
              <TextField
                label="Code"
                inputMode="numeric"
                autoComplete="one-time-code"
                error={errors.code?.message}
                {...register('code')}
              />
              <NewPasswordField label="Password" error={errors.password?.message} {...register('password')} />
              <Button type="submit" block disabled={isSubmitting}>
                {isSubmitting ? 'Submitting...' : 'Submit'}
              </Button>
            </form>
          </>
        ) : (
          <Alert tone="warning">
            <p>
              The link has no email address. <Link to={paths.changePassword}>Request a new verification code.</Link>
            </p>
          </Alert>
        )}
        <p className="auth-links">
          <Link to={paths.login}>Back</Link>
        </p>
      </div>
    </AuthLayout>
  );
}

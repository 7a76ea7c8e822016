import { zodResolver } from '@hookform/resolvers/zod';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { Link, useNavigate } from 'react-router';
import { signUpFormSchema, type SignUpForm } from '../../../../../contracts/auth-forms.ts';
import { paths } from '../../../app/paths.ts';
import { Alert } from '../../../components/alert.tsx';
import { Button } from '../../../components/button.tsx';
import { AuthLayout } from '../../../components/layout/auth-layout.tsx';
import { TextField } from '../../../components/text-field.tsx';
import { useAuth } from '../../../lib/auth/auth-context.ts';
import { useConfig } from '../../../lib/config-context.tsx';
import { NewPasswordField } from '../components/new-password-field.tsx';

export const SIGN_UP_FALLBACK_ERROR = 'An error occurred during sign-up.';

function CheckYourEmail({ email }: { readonly email: string }) {
  const navigate = useNavigate();
  return (
    <section className="stack" aria-labelledby="check-email-title">
      <h2 id="check-email-title">Check Your Email</h2>
      <p>
        We sent a confirmation code to <strong>{email}</strong>.
      </p>
      <p>Click the confirmation link in that email to activate your account, then sign in.</p>
      <div>
        <Button onClick={() => navigate(paths.login)}>Back to Login</Button>
      </div>
    </section>
  );
}

/** /signup: account creation; the emailed link confirms the account. */
export default function SignUpPage() {
  const { productName } = useConfig();
  const auth = useAuth();
  const navigate = useNavigate();
  const [error, setError] = useState<string | null>(null);
  const [sentTo, setSentTo] = useState<string | null>(null);
  const {
    register,
    handleSubmit,
    formState: { errors, isSubmitting },
  } = useForm<SignUpForm>({
    resolver: zodResolver(signUpFormSchema),
    defaultValues: { email: '', password: '', confirmPassword: '' },
  });

  const submit = async ({ email, password }: SignUpForm) => {
    setError(null);
    try {
      const result = await auth.signUp(email, password);
      if (result.isSignUpComplete) navigate(paths.home);
      else setSentTo(email);
    } catch (failure) {
      setError(failure instanceof Error && failure.message ? failure.message : SIGN_UP_FALLBACK_ERROR);
    }
  };

  return (
    <AuthLayout productTitle={productName}>
      {sentTo ? (
        <CheckYourEmail email={sentTo} />
      ) : (
        <div className="stack">
          <div>
            <h2>Create your account</h2>
            <p className="text-muted">Use your work email address.</p>
          </div>
          {error && <Alert tone="error">{error}</Alert>}
          <form className="stack" noValidate onSubmit={handleSubmit(submit)} onFocus={auth.preload}>
            <TextField label="Email" type="email" autoComplete="email" error={errors.email?.message} {...register('email')} />
            <NewPasswordField label="Password" error={errors.password?.message} {...register('password')} />
            <TextField
              label="Confirm Password"
              type="password"
              autoComplete="new-password"
              error={errors.confirmPassword?.message}
              {...register('confirmPassword')}
            />
            <Button type="submit" block disabled={isSubmitting}>
              {isSubmitting ? 'Creating Account...' : 'Create Account'}
            </Button>
          </form>
          <p className="auth-links">
            <Link to={paths.login}>Already have an account? Sign In</Link>
          </p>
        </div>
      )}
    </AuthLayout>
  );
}

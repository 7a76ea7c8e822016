import { zodResolver } from '@hookform/resolvers/zod';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { Link, useNavigate } from 'react-router';
import { signUpFormSchema, type SignUpForm } from '#contracts/auth-forms.ts';
import { paths } from '#web/config/paths.ts';
import { Alert } from '#web/components/alert.tsx';
import { Button } from '#web/components/button.tsx';
import { AuthLayout } from '#web/components/layout/auth-layout.tsx';
import { TextField } from '#web/components/text-field.tsx';
import { useAuth } from '#web/lib/auth/auth-context.ts';
import { useConfig } from '#web/lib/config-context.tsx';
import { useDocumentTitle } from '#web/lib/use-document-title.ts';
import { Spinner } from '#web/components/spinner.tsx';
import { NewPasswordField } from '#web/components/sign-in/new-password-field.tsx';
import { SignInFlow } from '#web/components/sign-in/sign-in-flow.tsx';
import { useAutoSignIn, type AutoSignIn } from '../use-auto-sign-in.ts';
import { useStepHeading } from '#web/components/sign-in/use-step-heading.ts';
import { USER_SIGN_IN_LABELS } from '#web/lib/sign-in/sign-in-messages.ts';
import { USER_PORTAL_GROUPS } from '#contracts/groups.ts';

const SIGN_UP_FALLBACK_ERROR = 'An error occurred during sign-up.';
const SIGN_UP_TITLE = 'Create your account';

function CheckYourEmail({ email, waiting }: { readonly email: string; readonly waiting: AutoSignIn }) {
  const navigate = useNavigate();
  // This panel replaces the form: focus starts at its heading.
  const heading = useStepHeading('check-email');
  return (
    <section className="stack" aria-labelledby="check-email-title">
      <h2 id="check-email-title" ref={heading} tabIndex={-1}>
        Check Your Email
      </h2>
      <p>
        We sent a confirmation code to <strong>{email}</strong>.
      </p>
      <p>Click the confirmation link in that email to activate your account.</p>
      {waiting.kind === 'waiting' && (
        <Spinner size="sm" label="This page goes on to the MFA setup once the account is confirmed..." />
      )}
      {waiting.kind === 'failed' && (
        <Alert tone="error">
          <p>{waiting.message}</p>
          <p>Once you have clicked the link, sign in with your email address and password.</p>
        </Alert>
      )}
      <div>
        <Button variant={waiting.kind === 'failed' ? 'primary' : 'secondary'} onClick={() => navigate(paths.login)}>
          {waiting.kind === 'failed' ? 'Sign In' : 'Back to Login'}
        </Button>
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
  // The password waits in memory only, for the automatic sign-in once the link is clicked.
  const [autoSignIn, startAutoSignIn] = useAutoSignIn();
  useDocumentTitle(SIGN_UP_TITLE);
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
      else {
        setSentTo(email);
        startAutoSignIn({ email, password });
      }
    } catch (failure) {
      setError(failure instanceof Error && failure.message ? failure.message : SIGN_UP_FALLBACK_ERROR);
    }
  };

  return (
    <AuthLayout productTitle={productName}>
      {sentTo && autoSignIn.kind === 'signedIn' ? (
        <SignInFlow
          requiredGroups={USER_PORTAL_GROUPS}
          privilege="user"
          productName={productName}
          labels={USER_SIGN_IN_LABELS}
          resume={{ email: sentTo, result: autoSignIn.result }}
          onSignedIn={() => navigate(paths.home, { replace: true })}
        />
      ) : sentTo ? (
        <CheckYourEmail email={sentTo} waiting={autoSignIn} />
      ) : (
        <div className="stack">
          <div>
            <h2>{SIGN_UP_TITLE}</h2>
            <p className="text-muted">Use your work email address.</p>
          </div>
          {error && <Alert tone="error">{error}</Alert>}
          <form className="stack" noValidate onSubmit={handleSubmit(submit)} onFocus={auth.preload}>
            <TextField
              label="Email"
              type="email"
              autoComplete="email"
              error={errors.email?.message}
              {...register('email')}
            />
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

import { Link, useNavigate, useSearchParams } from 'react-router';
import { paths } from '#web/config/paths.ts';
import { Alert } from '#web/components/alert.tsx';
import { AuthLayout } from '#web/components/layout/auth-layout.tsx';
import { notify } from '#web/components/toaster.tsx';
import { useAuth } from '#web/lib/auth/auth-context.ts';
import { useConfig } from '#web/lib/config-context.tsx';
import { useDocumentTitle } from '#web/lib/use-document-title.ts';
import { ResetConfirmForm } from '#web/components/sign-in/reset-forms.tsx';
import { RESET_TITLE } from '#web/components/sign-in/reset-password-card.tsx';
import { RESET_MESSAGES } from '#web/lib/sign-in/reset-messages.ts';
import { useStepHeading } from '#web/components/sign-in/use-step-heading.ts';

const CONFIRM_TEXTS = {
  labels: { code: 'Code', password: 'Password' },
  submit: 'Submit',
  busy: 'Submitting...',
} as const;

const confirmErrorText = (failure: unknown) =>
  failure instanceof Error && failure.message ? failure.message : RESET_MESSAGES.confirmFallback;

/**
 * /verify-reset-code?email=...: the emailed code and the new password, the reset's second step
 * (focus starts at its heading).
 */
export default function VerifyResetCodePage() {
  const { productName } = useConfig();
  const auth = useAuth();
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const email = params.get('email')?.trim() ?? '';
  const heading = useStepHeading('confirm');
  useDocumentTitle(RESET_TITLE);

  return (
    <AuthLayout productTitle={productName}>
      <div className="stack">
        <h2 ref={heading} tabIndex={-1}>
          {RESET_TITLE}
        </h2>
        {email ? (
          <ResetConfirmForm
            email={email}
            texts={CONFIRM_TEXTS}
            errorText={confirmErrorText}
            onConfirm={async ({ code, password }) => {
              await auth.confirmForgotPassword(email, code, password);
              notify.success(RESET_MESSAGES.passwordReset);
              navigate(paths.login);
            }}
          />
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

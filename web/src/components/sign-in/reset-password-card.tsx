import { useNavigate } from 'react-router';
import { verifyResetCodePath } from '#web/config/paths.ts';
import { notify } from '#web/components/toaster.tsx';
import { useAuth } from '#web/lib/auth/auth-context.ts';
import { RESET_MESSAGES } from '#web/lib/sign-in/reset-messages.ts';
import { ResetRequestForm } from './reset-forms.tsx';

export interface ResetPasswordCardProps {
  /** The signed-in user's address: shown as placeholder, prefilled and locked. */
  readonly lockedEmail?: string;
  /** Without its own card frame (inside a page that is already a card). */
  readonly bare?: boolean;
}

export const RESET_TITLE = 'Reset Your Password';

const REQUEST_TEXTS = {
  labels: { email: 'Email Address' },
  submit: 'Send Verification Code',
  busy: 'Sending...',
} as const;

/** The thrown message, or the spec's fallback. */
const requestErrorText = (failure: unknown) =>
  failure instanceof Error && failure.message ? failure.message : RESET_MESSAGES.requestFallback;

/** 'Reset Your Password': sends a reset code, then continues at /verify-reset-code. */
export function ResetPasswordCard({ lockedEmail, bare = false }: ResetPasswordCardProps) {
  const auth = useAuth();
  const navigate = useNavigate();

  const request = async (email: string) => {
    await auth.forgotPassword(email);
    notify.success(RESET_MESSAGES.codeSent);
    navigate(verifyResetCodePath(email));
  };

  return (
    <section className={bare ? 'stack' : 'card stack'} aria-labelledby="reset-card-title">
      <div>
        {/* Inside an auth card, the same heading as every other auth card. */}
        <h2 id="reset-card-title" className={bare ? undefined : 'card-title'}>
          {RESET_TITLE}
        </h2>
        <p className="text-muted">We will email you a verification code to choose a new password.</p>
      </div>
      <ResetRequestForm
        texts={REQUEST_TEXTS}
        {...(lockedEmail === undefined ? {} : { lockedEmail })}
        onRequest={request}
        errorText={requestErrorText}
        disableWhenEmpty
      />
    </section>
  );
}

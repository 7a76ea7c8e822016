import { useState, type FormEvent } from 'react';
import { useNavigate } from 'react-router';
import { verifyResetCodePath } from '../../../app/paths.ts';
import { Button } from '../../../components/button.tsx';
import { TextField } from '../../../components/text-field.tsx';
import { notify } from '../../../components/toaster.tsx';
import { useAuth } from '../../../lib/auth/auth-context.ts';
import { RESET_MESSAGES } from '../reset-messages.ts';

export interface ResetPasswordCardProps {
  /** The signed-in user's address: shown as placeholder, prefilled and locked. */
  readonly lockedEmail?: string;
  /** Without its own card frame (inside a page that is already a card). */
  readonly bare?: boolean;
}

/** 'Reset Your Password': sends a reset code, then continues at /verify-reset-code. */
export function ResetPasswordCard({ lockedEmail, bare = false }: ResetPasswordCardProps) {
  const auth = useAuth();
  const navigate = useNavigate();
  const [email, setEmail] = useState(lockedEmail ?? '');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const address = email.trim();

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (!address || busy) return;
    setBusy(true);
    setError(null);
    try {
      await auth.forgotPassword(address);
      notify.success(RESET_MESSAGES.codeSent);
      navigate(verifyResetCodePath(address));
    } catch (failure) {
      setError(failure instanceof Error && failure.message ? failure.message : RESET_MESSAGES.requestFallback);
      setBusy(false);
    }
  };

  return (
    <section className={bare ? 'stack' : 'card stack'} aria-labelledby="reset-card-title">
      <h2 id="reset-card-title" className="card-title">
        Reset Your Password
      </h2>
      <p className="text-muted">We will email you a verification code to choose a new password.</p>
      <form className="stack" noValidate onSubmit={submit} onFocus={auth.preload}>
        <TextField
          label="Email Address"
          type="email"
          autoComplete="email"
          placeholder={lockedEmail ?? 'name@company.com'}
          value={email}
          disabled={lockedEmail !== undefined}
          onChange={(event) => setEmail(event.target.value)}
        />
        <div>
          <Button type="submit" disabled={busy || !address}>
            {busy ? 'Sending...' : 'Send Verification Code'}
          </Button>
          {error && (
            <p className="field-error" role="alert" style={{ marginTop: 'var(--space-2)' }}>
              {error}
            </p>
          )}
        </div>
      </form>
    </section>
  );
}

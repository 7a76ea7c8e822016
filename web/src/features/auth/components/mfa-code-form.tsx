import { useState, type FormEvent } from 'react';
import { Alert } from '../../../components/alert.tsx';
import { Button } from '../../../components/button.tsx';
import { isCompleteMfaCode, MfaCodeField } from './mfa-code-field.tsx';

export interface MfaCodeFormProps {
  readonly onSubmit: (code: string) => Promise<void>;
  readonly onCancel: () => void;
  readonly error?: string | null;
}

/** The TOTP code step of a sign-in (user and admin portals). */
export function MfaCodeForm({ onSubmit, onCancel, error }: MfaCodeFormProps) {
  const [code, setCode] = useState('');
  const [touched, setTouched] = useState(false);
  const [busy, setBusy] = useState(false);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setTouched(true);
    if (!isCompleteMfaCode(code) || busy) return;
    setBusy(true);
    try {
      await onSubmit(code);
    } finally {
      setBusy(false);
      setCode('');
    }
  };

  return (
    <form className="stack" noValidate onSubmit={submit} aria-labelledby="mfa-code-title">
      <div>
        <h2 id="mfa-code-title">Multi-Factor Authentication</h2>
        <p className="text-muted">Enter the 6-digit code from your authenticator app</p>
      </div>
      {error && <Alert tone="error">{error}</Alert>}
      <MfaCodeField
        label="Authentication Code"
        value={code}
        onChange={setCode}
        touched={touched}
        onBlur={() => setTouched(true)}
        disabled={busy}
      />
      <div className="row">
        <Button type="submit" disabled={!isCompleteMfaCode(code) || busy}>
          {busy ? 'Verifying...' : 'Verify & Sign In'}
        </Button>
        <Button variant="secondary" onClick={onCancel} disabled={busy}>
          Cancel
        </Button>
      </div>
      <p className="field-hint">Having trouble? Make sure your device time is synchronized.</p>
    </form>
  );
}

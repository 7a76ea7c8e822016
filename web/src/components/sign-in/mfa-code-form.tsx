import { useState, type FormEvent } from 'react';
import { Alert } from '#web/components/alert.tsx';
import { Button } from '#web/components/button.tsx';
import { Checkbox } from '#web/components/checkbox.tsx';
import { useStepHeading } from './use-step-heading.ts';
import { isCompleteMfaCode, MfaCodeField } from './mfa-code-field.tsx';

export const REMEMBER_DEVICE_TEXT = {
  label: 'Remember this device',
  caution: 'Later sign-ins here skip the code. Not on a shared or public computer.',
} as const;

export interface MfaCodeFormProps {
  /** `remember` is the Remember this device choice (always false where it is not offered). */
  readonly onSubmit: (code: string, remember: boolean) => Promise<void>;
  readonly onCancel: () => void;
  readonly error?: string | null;
  /** Offers Remember this device (deployments that remember devices). */
  readonly offerRemember?: boolean;
}

/** The TOTP code step of a sign-in (user and admin portals). */
export function MfaCodeForm({ onSubmit, onCancel, error, offerRemember = false }: MfaCodeFormProps) {
  const [code, setCode] = useState('');
  const [touched, setTouched] = useState(false);
  const [remember, setRemember] = useState(false);
  const [busy, setBusy] = useState(false);
  // This step replaces the credentials: focus starts at its heading.
  const heading = useStepHeading('code');

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setTouched(true);
    if (!isCompleteMfaCode(code) || busy) return;
    setBusy(true);
    try {
      await onSubmit(code, offerRemember && remember);
    } finally {
      setBusy(false);
      setCode('');
    }
  };

  return (
    <form className="stack" noValidate onSubmit={submit} aria-labelledby="mfa-code-title">
      <div>
        <h2 id="mfa-code-title" ref={heading} tabIndex={-1}>
          Multi-Factor Authentication
        </h2>
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
      {offerRemember && (
        <Checkbox
          label={REMEMBER_DEVICE_TEXT.label}
          hint={REMEMBER_DEVICE_TEXT.caution}
          checked={remember}
          onChange={(event) => setRemember(event.target.checked)}
          disabled={busy}
        />
      )}
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

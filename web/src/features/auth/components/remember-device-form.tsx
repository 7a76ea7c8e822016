import { useState, type FormEvent } from 'react';
import { Alert } from '../../../components/alert.tsx';
import { Button } from '../../../components/button.tsx';

export interface RememberDeviceFormProps {
  /** Called with the user's choice; the sign-in then continues. */
  readonly onContinue: (remember: boolean) => Promise<void>;
  readonly error?: string | null;
}

/**
 * After a sign-in with a code on a device the identity provider has just confirmed: whether
 * to remember it, so that its next sign-ins ask for the password only.
 */
export function RememberDeviceForm({ onContinue, error }: RememberDeviceFormProps) {
  const [remember, setRemember] = useState(false);
  const [busy, setBusy] = useState(false);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (busy) return;
    setBusy(true);
    try {
      await onContinue(remember);
    } finally {
      setBusy(false);
    }
  };

  return (
    <form className="stack" noValidate onSubmit={submit} aria-labelledby="remember-device-title">
      <div>
        <h2 id="remember-device-title">Signed in</h2>
        <p className="text-muted">
          On a device you remember, later sign-ins ask for your password only, not for a code. Do not remember a shared or
          public computer.
        </p>
      </div>
      {error && <Alert tone="error">{error}</Alert>}
      <label className="row">
        <input type="checkbox" checked={remember} onChange={(event) => setRemember(event.target.checked)} disabled={busy} />
        <span>Remember this device</span>
      </label>
      <div>
        <Button type="submit" disabled={busy}>
          {busy ? 'Continuing...' : 'Continue'}
        </Button>
      </div>
    </form>
  );
}

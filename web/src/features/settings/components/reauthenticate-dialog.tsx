import { useId, useState, type FormEvent } from 'react';
import { Alert } from '#web/components/alert.tsx';
import { Button } from '#web/components/button.tsx';
import { Modal } from '#web/components/modal.tsx';
import { TextField } from '#web/components/text-field.tsx';
import type { Reauthenticate } from '#web/lib/auth/reauthentication.ts';
import { toAuthError } from '#web/lib/auth/types.ts';
import { isCompleteMfaCode, MfaCodeField } from '#web/components/sign-in/mfa-code-field.tsx';

const REAUTHENTICATE_TEXT = {
  title: 'Confirm it is you',
  intro:
    'Changing your authenticator or your passkeys needs a recent sign-in. Enter your password and a code from your current authenticator app.',
  submit: 'Confirm',
  busy: 'Confirming...',
} as const;

export interface ReauthenticateDialogProps {
  readonly email: string;
  readonly reauthenticate: Reauthenticate;
  /** Called with true once signed in again, false when the person cancels. */
  readonly onDone: (confirmed: boolean) => void;
}

/** Password and current code, then a fresh sign-in; the action that asked for it is retried. */
export function ReauthenticateDialog({ email, reauthenticate, onDone }: ReauthenticateDialogProps) {
  const formId = useId();
  const [password, setPassword] = useState('');
  const [code, setCode] = useState('');
  const [codeTouched, setCodeTouched] = useState(false);
  const [busy, setBusy] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);
  const ready = password.length > 0 && isCompleteMfaCode(code);

  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (!ready || busy) return;
    setBusy(true);
    setFailure(null);
    try {
      await reauthenticate(password, code);
      onDone(true);
    } catch (error) {
      setFailure(toAuthError(error).message);
      setCode('');
      setBusy(false);
    }
  };

  return (
    <Modal
      open
      title={REAUTHENTICATE_TEXT.title}
      onClose={() => onDone(false)}
      busy={busy}
      footer={
        <>
          <Button variant="secondary" onClick={() => onDone(false)} disabled={busy}>
            Cancel
          </Button>
          <Button type="submit" form={formId} disabled={busy || !ready}>
            {busy ? REAUTHENTICATE_TEXT.busy : REAUTHENTICATE_TEXT.submit}
          </Button>
        </>
      }
    >
      <form id={formId} className="stack" noValidate onSubmit={(event) => void submit(event)}>
        <p>{REAUTHENTICATE_TEXT.intro}</p>
        {failure && <Alert tone="error">{failure}</Alert>}
        <TextField label="Email" type="email" value={email} readOnly autoComplete="username" />
        <TextField
          label="Password"
          type="password"
          autoComplete="current-password"
          value={password}
          disabled={busy}
          onChange={(event) => setPassword(event.target.value)}
        />
        <MfaCodeField
          label="Authentication Code"
          value={code}
          onChange={setCode}
          touched={codeTouched}
          onBlur={() => setCodeTouched(true)}
          disabled={busy}
        />
      </form>
    </Modal>
  );
}

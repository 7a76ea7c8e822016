import { useId, useState, type FormEvent } from 'react';
import { MESSAGES } from '../../../../../contracts/fields.ts';
import { UPDATE_USER_MESSAGES } from '../../../../../contracts/user-admin.ts';
import { Alert } from '../../../components/alert.tsx';
import { cx } from '../../../components/class-names.ts';
import { TextField } from '../../../components/text-field.tsx';
import { ADMIN_FAILURES, updateUserErrorText } from '../errors.ts';
import { FormDialog } from './form-dialog.tsx';
import { PasswordChecklist } from './password-checklist.tsx';

const MIN_PASSWORD_LENGTH = 8;

export interface EditUserModalProps {
  /** The account being edited, or null when the dialog is closed. */
  readonly email: string | null;
  readonly onClose: () => void;
  /** Sets the new password; a rejection is shown in the dialog, translated. */
  readonly onUpdate: (email: string, newPassword: string) => Promise<void>;
}

/** The edit form's own rule (admin-portal §5); the server applies the full password policy. */
export function editPasswordError(password: string): string | null {
  if (password === '') return UPDATE_USER_MESSAGES.atLeastOneField;
  if (password.length < MIN_PASSWORD_LENGTH) return MESSAGES.adminPasswordMin;
  return null;
}

function EditUserDialog({ email, onClose, onUpdate }: { readonly email: string } & Omit<EditUserModalProps, 'email'>) {
  const passwordId = useId();
  const checklistId = useId();
  const [password, setPassword] = useState('');
  const [submitted, setSubmitted] = useState(false);
  const [busy, setBusy] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);
  const fieldError = submitted ? editPasswordError(password) : null;

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setSubmitted(true);
    if (editPasswordError(password) !== null || busy) return;
    setBusy(true);
    setFailure(null);
    try {
      await onUpdate(email, password);
    } catch (error) {
      setFailure(updateUserErrorText(error));
      setBusy(false);
    }
  };

  return (
    <FormDialog title="Edit User" onClose={onClose} onSubmit={submit} busy={busy} submitLabel="Update User" busyLabel="Updating...">
      {failure && (
        <Alert tone="error" title={ADMIN_FAILURES.updateUser}>
          <p>{failure}</p>
        </Alert>
      )}
      <TextField label="Email" type="email" value={email} readOnly hint="The email address cannot be changed." />
      <TextField
        id={passwordId}
        label="New Password"
        type="password"
        autoComplete="new-password"
        // The email is read-only: the password is what the dialog is for.
        data-autofocus
        value={password}
        onChange={(event) => setPassword(event.target.value)}
        error={fieldError ?? undefined}
        aria-describedby={cx(checklistId, fieldError && `${passwordId}-error`)}
      />
      <PasswordChecklist id={checklistId} password={password} />
    </FormDialog>
  );
}

/** 'Edit User': the email read-only and a new password (the only change the form sends). */
export function EditUserModal({ email, ...props }: EditUserModalProps) {
  return email === null ? null : <EditUserDialog email={email} {...props} />;
}

import { useId, useState, type FormEvent } from 'react';
import { MESSAGES } from '#contracts/fields.ts';
import { UPDATE_USER_MESSAGES } from '#contracts/user-admin.ts';
import { Alert } from '#web/components/alert.tsx';
import { cx } from '#web/components/class-names.ts';
import { FormDialog } from '#web/components/form-dialog.tsx';
import { TextField } from '#web/components/text-field.tsx';
import { notify } from '#web/components/toaster.tsx';
import { useServerCall } from '#web/lib/use-server-call.ts';
import type { UserCompanies } from '../api/admin-api.ts';
import { sameCompanies, userCompaniesProblem } from '../companies.ts';
import { ADMIN_FAILURES, failureText, updateUserErrorText, type Failure } from '../errors.ts';
import type { CompanyChoices } from '../use-companies.ts';
import { CompanyField } from './company-field.tsx';
import { PasswordChecklist } from './password-checklist.tsx';

const MIN_PASSWORD_LENGTH = 8;

/** The account being edited: its email and its companies. */
export interface EditedUser extends UserCompanies {
  readonly email: string;
}

export interface EditUserModalProps {
  /** The account being edited, or null when the dialog is closed. */
  readonly user: EditedUser | null;
  readonly companies: CompanyChoices;
  readonly onClose: () => void;
  /** Sets the new password; a rejection is shown in the dialog, translated. */
  readonly onUpdatePassword: (email: string, newPassword: string) => Promise<void>;
  /** Sets the user's companies (SET_USER_COMPANIES); resolves to the server's message. */
  readonly onSetCompanies: (email: string, companies: UserCompanies) => Promise<string>;
}

/** The edit form's own rule (admin-portal §5); the server applies the full password policy. */
function editPasswordError(password: string): string | null {
  if (password === '') return UPDATE_USER_MESSAGES.atLeastOneField;
  if (password.length < MIN_PASSWORD_LENGTH) return MESSAGES.adminPasswordMin;
  return null;
}

function EditUserDialog({
  user,
  companies,
  onClose,
  onUpdatePassword,
  onSetCompanies,
}: { readonly user: EditedUser } & Omit<EditUserModalProps, 'user'>) {
  const passwordId = useId();
  const checklistId = useId();
  const [password, setPassword] = useState('');
  const [selection, setSelection] = useState<UserCompanies>({ companies: user.companies, owner: user.owner });
  // A password already saved is not sent again when only the company failed.
  const [passwordSaved, setPasswordSaved] = useState(false);
  const [submitted, setSubmitted] = useState(false);
  const call = useServerCall<'update', Failure>();
  const { busy, failure } = call;

  const companiesChanged = !sameCompanies(selection, user);
  const passwordGiven = password !== '';
  const passwordProblem = passwordGiven ? editPasswordError(password) : companiesChanged ? null : editPasswordError('');
  const companyProblem = companiesChanged ? userCompaniesProblem(selection) : null;
  const fieldError = submitted ? passwordProblem : null;
  // Two companies without the owner flag are refused at once, not only on submit.
  const companyError = submitted || (!selection.owner && selection.companies.length > 1) ? companyProblem : null;

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setSubmitted(true);
    if (passwordProblem !== null || companyProblem !== null || busy) return;
    // The password is sent first; a company refused after it says the password was saved.
    let savedNow = false;
    const work = async () => {
      if (passwordGiven) {
        await onUpdatePassword(user.email, password);
        savedNow = true;
        setPasswordSaved(true);
        setPassword('');
      }
      const message = companiesChanged ? await onSetCompanies(user.email, selection) : null;
      notify.success(message !== null && !savedNow && !passwordSaved ? message : 'User updated successfully');
      onClose();
    };
    await call.run('update', work, {
      failure: (error): Failure => {
        if (passwordGiven && !savedNow)
          return { title: ADMIN_FAILURES.updateUser, lines: [updateUserErrorText(error)] };
        const lines = [failureText(error, ADMIN_FAILURES.setUserCompanies)];
        if (savedNow || passwordSaved) lines.push('The new password was saved.');
        return { title: ADMIN_FAILURES.setUserCompanies, lines };
      },
    });
  };

  return (
    <FormDialog
      title="Edit User"
      onClose={onClose}
      onSubmit={submit}
      busy={busy}
      submitLabel="Update User"
      busyLabel="Updating..."
    >
      {failure && (
        <Alert tone="error" title={failure.title}>
          {failure.lines.map((line) => (
            <p key={line}>{line}</p>
          ))}
        </Alert>
      )}
      <TextField label="Email" type="email" value={user.email} readOnly hint="The email address cannot be changed." />
      <TextField
        id={passwordId}
        label="New Password"
        type="password"
        autoComplete="new-password"
        // The email is read-only: the password is what the dialog opens on.
        data-autofocus
        value={password}
        onChange={(event) => setPassword(event.target.value)}
        error={fieldError ?? undefined}
        aria-describedby={cx(checklistId, fieldError && `${passwordId}-error`)}
      />
      <PasswordChecklist id={checklistId} password={password} />
      <CompanyField value={selection} onChange={setSelection} choices={companies} allowOwner error={companyError} />
    </FormDialog>
  );
}

/** 'Edit User': the email read-only, a new password, and the user's company (each sent only when changed). */
export function EditUserModal({ user, ...props }: EditUserModalProps) {
  return user === null ? null : <EditUserDialog key={user.email} user={user} {...props} />;
}

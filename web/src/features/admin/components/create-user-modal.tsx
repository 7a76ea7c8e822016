import { zodResolver } from '@hookform/resolvers/zod';
import { useId, useState } from 'react';
import { useForm, useWatch } from 'react-hook-form';
import { z } from 'zod';
import { adminEmail, strongPassword } from '../../../../../contracts/fields.ts';
import { Alert } from '../../../components/alert.tsx';
import { cx } from '../../../components/class-names.ts';
import { TextField } from '../../../components/text-field.tsx';
import { ADMIN_FAILURES, userManagementErrorText } from '../errors.ts';
import { FormDialog } from './form-dialog.tsx';
import { PasswordChecklist } from './password-checklist.tsx';

export const createUserFormSchema = z.object({ email: adminEmail, password: strongPassword });
export type CreateUserForm = z.infer<typeof createUserFormSchema>;

export interface CreateUserModalProps {
  readonly open: boolean;
  readonly onClose: () => void;
  /** Creates the account; a rejection is shown in the dialog, translated. */
  readonly onCreate: (values: CreateUserForm) => Promise<void>;
}

function CreateUserDialog({ onClose, onCreate }: Omit<CreateUserModalProps, 'open'>) {
  const passwordId = useId();
  const checklistId = useId();
  const [failure, setFailure] = useState<string | null>(null);
  const {
    register,
    control,
    handleSubmit,
    formState: { errors, isSubmitting },
  } = useForm<CreateUserForm>({ resolver: zodResolver(createUserFormSchema), defaultValues: { email: '', password: '' } });
  const password = useWatch({ control, name: 'password' });

  const submit = async (values: CreateUserForm) => {
    setFailure(null);
    try {
      await onCreate(values);
    } catch (error) {
      setFailure(userManagementErrorText(error));
    }
  };

  return (
    <FormDialog
      title="Create New User"
      onClose={onClose}
      onSubmit={handleSubmit(submit)}
      busy={isSubmitting}
      submitLabel="Create User"
      busyLabel="Creating..."
    >
      {failure && (
        <Alert tone="error" title={ADMIN_FAILURES.createUser}>
          <p>{failure}</p>
        </Alert>
      )}
      <TextField label="Email" type="email" autoComplete="off" error={errors.email?.message} {...register('email')} />
      <TextField
        id={passwordId}
        label="Password"
        type="password"
        autoComplete="new-password"
        error={errors.password?.message}
        aria-describedby={cx(checklistId, errors.password && `${passwordId}-error`)}
        {...register('password')}
      />
      <PasswordChecklist id={checklistId} password={password} />
    </FormDialog>
  );
}

/** 'Create New User': email and password, with the requirements checked as they are typed. */
export function CreateUserModal({ open, ...props }: CreateUserModalProps) {
  // Mounted only while open, so every opening starts with an empty form.
  return open ? <CreateUserDialog {...props} /> : null;
}

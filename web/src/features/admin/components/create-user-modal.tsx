import { zodResolver } from '@hookform/resolvers/zod';
import { useId, useState } from 'react';
import { useForm, useWatch } from 'react-hook-form';
import { z } from 'zod';
import { adminEmail, strongPassword } from '../../../../../contracts/fields.ts';
import { Alert } from '../../../components/alert.tsx';
import { Button } from '../../../components/button.tsx';
import { cx } from '../../../components/class-names.ts';
import { Modal } from '../../../components/modal.tsx';
import { TextField } from '../../../components/text-field.tsx';
import { ADMIN_FAILURES, userManagementErrorText } from '../errors.ts';
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
  const formId = useId();
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
    <Modal
      open
      title="Create New User"
      onClose={onClose}
      busy={isSubmitting}
      footer={
        <>
          <Button variant="secondary" onClick={onClose} disabled={isSubmitting}>
            Cancel
          </Button>
          <Button type="submit" form={formId} disabled={isSubmitting}>
            {isSubmitting ? 'Creating...' : 'Create User'}
          </Button>
        </>
      }
    >
      <form id={formId} className="stack" noValidate onSubmit={handleSubmit(submit)}>
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
      </form>
    </Modal>
  );
}

/** 'Create New User': email and password, with the requirements checked as they are typed. */
export function CreateUserModal({ open, ...props }: CreateUserModalProps) {
  // Mounted only while open, so every opening starts with an empty form.
  return open ? <CreateUserDialog {...props} /> : null;
}

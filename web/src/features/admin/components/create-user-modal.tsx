import { zodResolver } from '@hookform/resolvers/zod';
import { useId, useState } from 'react';
import { useForm, useWatch } from 'react-hook-form';
import { z } from 'zod';
import { adminEmail, strongPassword } from '#contracts/fields.ts';
import { Alert } from '#web/components/alert.tsx';
import { cx } from '#web/components/class-names.ts';
import { FormDialog } from '#web/components/form-dialog.tsx';
import { TextField } from '#web/components/text-field.tsx';
import type { UserCompanies } from '../api/admin-api.ts';
import { userCompaniesProblem } from '../companies.ts';
import { ADMIN_FAILURES, userManagementErrorText } from '../errors.ts';
import type { CompanyChoices } from '../use-companies.ts';
import { CompanyField } from './company-field.tsx';
import { PasswordChecklist } from './password-checklist.tsx';
import './create-user-modal.css';

/**
 * How the new user gets a password: the pool's invitation email with a temporary password
 * (they choose their own at the first sign-in), or one the admin chooses now.
 */
type PasswordDelivery = 'invitation' | 'password';

const createUserFormSchema = z
  .object({ email: adminEmail, delivery: z.enum(['invitation', 'password']), password: z.string() })
  .superRefine((values, ctx) => {
    if (values.delivery !== 'password') return;
    const password = strongPassword.safeParse(values.password);
    if (!password.success)
      ctx.addIssue({
        code: 'custom',
        message: password.error.issues[0]?.message ?? 'Password is required',
        path: ['password'],
      });
  });
type CreateUserFormValues = z.infer<typeof createUserFormSchema>;

/** What the form hands on: a password only when the admin chose one, companies only when chosen. */
export type CreateUserForm = { readonly email: string; readonly password?: string; readonly companies?: UserCompanies };

const NO_COMPANIES: UserCompanies = { companies: [], owner: false };

export interface CreateUserModalProps {
  readonly open: boolean;
  /** The companies the new account may belong to (optional; set later with Edit otherwise). */
  readonly companies: CompanyChoices;
  readonly onClose: () => void;
  /** Creates the account; a rejection is shown in the dialog, translated. */
  readonly onCreate: (values: CreateUserForm) => Promise<void>;
}

const DELIVERY_CHOICES: readonly { value: PasswordDelivery; label: string; hint: string }[] = [
  {
    value: 'invitation',
    label: 'Send an invitation email',
    hint: 'The user receives a temporary password by email and chooses their own at the first sign-in.',
  },
  {
    value: 'password',
    label: 'Set a password now',
    hint: 'You choose the password and pass it on to the user yourself.',
  },
];

function CreateUserDialog({ companies, onClose, onCreate }: Omit<CreateUserModalProps, 'open'>) {
  const passwordId = useId();
  const checklistId = useId();
  const [failure, setFailure] = useState<string | null>(null);
  const [company, setCompany] = useState<UserCompanies>(NO_COMPANIES);
  const [submitted, setSubmitted] = useState(false);
  const companyChosen = company.companies.length > 0 || company.owner;
  const companyProblem = companyChosen ? userCompaniesProblem(company) : null;
  const companyError = submitted || (!company.owner && company.companies.length > 1) ? companyProblem : null;
  const {
    register,
    control,
    handleSubmit,
    formState: { errors, isSubmitting },
  } = useForm<CreateUserFormValues>({
    resolver: zodResolver(createUserFormSchema),
    defaultValues: { email: '', delivery: 'invitation', password: '' },
  });
  const password = useWatch({ control, name: 'password' });
  const delivery = useWatch({ control, name: 'delivery' });

  const submit = async (values: CreateUserFormValues) => {
    setFailure(null);
    if (companyProblem !== null) return;
    try {
      await onCreate({
        email: values.email,
        ...(values.delivery === 'password' ? { password: values.password } : {}),
        ...(companyChosen ? { companies: company } : {}),
      });
    } catch (error) {
      setFailure(userManagementErrorText(error));
    }
  };

  return (
    <FormDialog
      title="Create New User"
      onClose={onClose}
      onSubmit={(event) => {
        setSubmitted(true);
        void handleSubmit(submit)(event);
      }}
      busy={isSubmitting}
      submitLabel={delivery === 'invitation' ? 'Create User & Send Invitation' : 'Create User'}
      busyLabel="Creating..."
    >
      {failure && (
        <Alert tone="error" title={ADMIN_FAILURES.createUser}>
          <p>{failure}</p>
        </Alert>
      )}
      <TextField label="Email" type="email" autoComplete="off" error={errors.email?.message} {...register('email')} />
      <fieldset className="delivery-choices">
        <legend className="field-label">How the user gets a password</legend>
        {DELIVERY_CHOICES.map((choice) => (
          <label key={choice.value} className="delivery-choice">
            <input type="radio" value={choice.value} {...register('delivery')} />
            <span>
              <span className="delivery-choice-label">{choice.label}</span>
              <span className="field-hint">{choice.hint}</span>
            </span>
          </label>
        ))}
      </fieldset>
      {delivery === 'password' && (
        <>
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
        </>
      )}
      <CompanyField value={company} onChange={setCompany} choices={companies} allowOwner error={companyError} />
    </FormDialog>
  );
}

/**
 * 'Create New User': email, and either the invitation email (the default) or a password the
 * admin chooses, with the requirements checked as they are typed; optionally the company.
 */
export function CreateUserModal({ open, ...props }: CreateUserModalProps) {
  // Mounted only while open, so every opening starts with an empty form.
  return open ? <CreateUserDialog {...props} /> : null;
}

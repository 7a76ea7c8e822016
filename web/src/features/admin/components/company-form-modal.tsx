import { zodResolver } from '@hookform/resolvers/zod';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { z } from 'zod';
import { COMPANY_MESSAGES, companyKind, companyName, type Company } from '#contracts/companies.ts';
import { FormDialog } from '#web/components/form-dialog.tsx';
import { Select } from '#web/components/select.tsx';
import { TextField } from '#web/components/text-field.tsx';
import { ApiError } from '#web/lib/api.ts';
import type { CompanyFields } from '../api/admin-api.ts';
import { actionFailure, ADMIN_FAILURES, type Failure } from '../errors.ts';
import { KIND_OPTIONS } from '../companies.ts';
import { FailureAlert } from './failure-alert.tsx';

/** The server's rules for a company, with its messages. */
const companyFormSchema = z.object({ name: companyName, kind: companyKind });
type CompanyForm = z.input<typeof companyFormSchema>;

/** Another company already holds the name, compared without case. */
const companyNameTaken = (companies: readonly Company[], name: string, ownId: string | null) =>
  companies.some((company) => company.id !== ownId && company.name.trim().toLowerCase() === name.trim().toLowerCase());

export interface CompanyFormModalProps {
  /** 'create', or the company being edited; null when closed. */
  readonly target: 'create' | Company | null;
  readonly companies: readonly Company[];
  readonly onClose: () => void;
  /** Saves the company; a rejection is shown in the dialog. */
  readonly onSave: (fields: CompanyFields, existing: Company | null) => Promise<void>;
}

function CompanyDialog({
  existing,
  companies,
  onClose,
  onSave,
}: { readonly existing: Company | null } & Omit<CompanyFormModalProps, 'target'>) {
  const [failure, setFailure] = useState<Failure | null>(null);
  const {
    register,
    handleSubmit,
    setError,
    formState: { errors, isSubmitting },
  } = useForm<CompanyForm, unknown, CompanyFields>({
    resolver: zodResolver(companyFormSchema),
    defaultValues: { name: existing?.name ?? '', kind: existing?.kind ?? 'manufacturer' },
  });

  const submit = async (fields: CompanyFields) => {
    setFailure(null);
    if (companyNameTaken(companies, fields.name, existing?.id ?? null)) {
      setError('name', { message: COMPANY_MESSAGES.nameTaken(fields.name) });
      return;
    }
    try {
      await onSave(fields, existing);
    } catch (error) {
      // A name taken meanwhile comes back as a 409 about the name field.
      if (error instanceof ApiError && error.fields?.includes('name')) setError('name', { message: error.error });
      else setFailure(actionFailure(ADMIN_FAILURES.saveCompany, error));
    }
  };

  return (
    <FormDialog
      title={existing ? 'Edit company' : 'Add company'}
      onClose={onClose}
      onSubmit={handleSubmit(submit)}
      busy={isSubmitting}
      submitLabel={existing ? 'Update' : 'Create'}
      busyLabel={existing ? 'Updating...' : 'Creating...'}
    >
      {failure && <FailureAlert failure={failure} onDismiss={() => setFailure(null)} />}
      <TextField label="Name" autoComplete="organization" required error={errors.name?.message} {...register('name')} />
      <Select label="Kind" options={KIND_OPTIONS} error={errors.kind?.message} {...register('kind')} />
    </FormDialog>
  );
}

/** 'Add company' / 'Edit company': a name and a kind, checked with the server's rules. */
export function CompanyFormModal({ target, ...props }: CompanyFormModalProps) {
  if (target === null) return null;
  return (
    <CompanyDialog
      key={target === 'create' ? 'create' : target.id}
      existing={target === 'create' ? null : target}
      {...props}
    />
  );
}

import { zodResolver } from '@hookform/resolvers/zod';
import { useState } from 'react';
import { useForm, useWatch } from 'react-hook-form';
import { z } from 'zod';
import { dashboardId, dashboardIdExistsMessage, dashboardLink, dashboardName, MESSAGES } from '#contracts/fields.ts';
import type { DashboardMetadata } from '#contracts/quicksight-admin.ts';
import { Checkbox } from '#web/components/checkbox.tsx';
import { FormDialog } from '#web/components/form-dialog.tsx';
import { TextField } from '#web/components/text-field.tsx';
import { Textarea } from '#web/components/textarea.tsx';
import type { DashboardFields } from '../api/admin-api.ts';
import { saveDashboardFailure, type Failure } from '../errors.ts';
import { FailureAlert } from './failure-alert.tsx';

const dashboardFormSchema = z.object({
  dashboardId,
  dashboardName,
  dashboardLink,
  description: z.string().trim().max(2000, 'Description must be at most 2000 characters'),
  /** Editing only: every company the dashboard is assigned to may see all of its rows. */
  sharedData: z.boolean(),
});
type DashboardForm = z.infer<typeof dashboardFormSchema>;

/** Whether another catalogue entry already uses the ID, compared without case. */
function isDashboardIdTaken(
  catalogue: readonly Pick<DashboardMetadata, 'id' | 'dashboardId'>[],
  candidate: string,
  ownRecordId: string | null,
): boolean {
  const wanted = candidate.trim().toLowerCase();
  if (!wanted) return false;
  return catalogue.some((entry) => entry.id !== ownRecordId && entry.dashboardId.toLowerCase() === wanted);
}

export interface DashboardFormModalProps {
  /** 'create', or the entry being edited; null when closed. */
  readonly target: 'create' | DashboardMetadata | null;
  readonly catalogue: readonly DashboardMetadata[];
  readonly onClose: () => void;
  /** Saves the entry; a rejection is shown in the dialog. */
  readonly onSave: (fields: DashboardFields, existing: DashboardMetadata | null) => Promise<void>;
}

function DashboardDialog({
  existing,
  catalogue,
  onClose,
  onSave,
}: { readonly existing: DashboardMetadata | null } & Omit<DashboardFormModalProps, 'target'>) {
  const [failure, setFailure] = useState<Failure | null>(null);
  const {
    register,
    control,
    handleSubmit,
    formState: { errors, isSubmitting },
  } = useForm<DashboardForm>({
    resolver: zodResolver(dashboardFormSchema),
    defaultValues: {
      dashboardId: existing?.dashboardId ?? '',
      dashboardName: existing?.dashboardName ?? '',
      dashboardLink: existing?.dashboardLink ?? '',
      description: existing?.description ?? '',
      sharedData: existing?.sharedData === true,
    },
  });
  const candidateId = useWatch({ control, name: 'dashboardId' });
  const taken = isDashboardIdTaken(catalogue, candidateId, existing?.id ?? null);

  const submit = async ({ sharedData, ...values }: DashboardForm) => {
    setFailure(null);
    if (isDashboardIdTaken(catalogue, values.dashboardId, existing?.id ?? null)) {
      setFailure({ title: dashboardIdExistsMessage(values.dashboardId), lines: [] });
      return;
    }
    try {
      // An empty description clears the stored one when editing; the shared-data
      // confirmation is sent only when the admin changed it.
      const sharedDataChanged = existing !== null && sharedData !== (existing.sharedData === true);
      await onSave(sharedDataChanged ? { ...values, sharedData } : values, existing);
    } catch (error) {
      setFailure(saveDashboardFailure(error));
    }
  };

  return (
    <FormDialog
      title={existing ? 'Edit Dashboard' : 'Add Dashboard'}
      onClose={onClose}
      onSubmit={handleSubmit(submit)}
      busy={isSubmitting}
      submitLabel={existing ? 'Update' : 'Create'}
      busyLabel={existing ? 'Updating...' : 'Creating...'}
      submitDisabled={taken}
    >
      {failure && <FailureAlert failure={failure} onDismiss={() => setFailure(null)} />}
      <TextField
        label="Dashboard ID"
        autoComplete="off"
        required
        error={errors.dashboardId?.message ?? (taken ? MESSAGES.dashboardIdTaken : undefined)}
        {...register('dashboardId')}
      />
      <TextField
        label="Dashboard Name"
        autoComplete="off"
        required
        error={errors.dashboardName?.message}
        {...register('dashboardName')}
      />
      <TextField
        label="Dashboard Link"
        type="url"
        autoComplete="off"
        required
        placeholder="https://"
        error={errors.dashboardLink?.message}
        {...register('dashboardLink')}
      />
      <Textarea
        label="Description (optional)"
        rows={3}
        error={errors.description?.message}
        {...register('description')}
      />
      {existing && (
        <Checkbox
          label="Shared data"
          hint="Every company this dashboard is assigned to may see all of its rows. Confirm only when its datasets hold no company's private data, or attach the portal's row-level security to them instead."
          {...register('sharedData')}
        />
      )}
    </FormDialog>
  );
}

/** 'Add Dashboard' / 'Edit Dashboard': ID, name and link required, description optional; when editing, shared data. */
export function DashboardFormModal({ target, ...props }: DashboardFormModalProps) {
  if (target === null) return null;
  return (
    <DashboardDialog
      key={target === 'create' ? 'create' : target.id}
      existing={target === 'create' ? null : target}
      {...props}
    />
  );
}

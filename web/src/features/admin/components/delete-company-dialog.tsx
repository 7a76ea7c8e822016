import { useState } from 'react';
import type { Company } from '../../../../../contracts/companies.ts';
import { ConfirmDialog } from '../../../components/confirm-dialog.tsx';
import { notify } from '../../../components/toaster.tsx';
import { useAdminApi } from '../api/admin-api-context.tsx';
import { countText } from '../count-text.ts';
import { actionFailure, ADMIN_FAILURES, type Failure } from '../errors.ts';
import { FailureAlert } from './failure-alert.tsx';

export interface DeleteCompanyDialogProps {
  readonly company: Company | null;
  readonly onClose: () => void;
  readonly onDeleted: (company: Company) => void;
}

/**
 * Asks before deleting a company. The server refuses (409, with the reason) while users
 * belong to it; the dialog then stays open and shows why.
 */
export function DeleteCompanyDialog({ company, onClose, onDeleted }: DeleteCompanyDialogProps) {
  const api = useAdminApi();
  const [busy, setBusy] = useState(false);
  const [failure, setFailure] = useState<Failure | null>(null);

  const close = () => {
    setFailure(null);
    onClose();
  };

  const remove = async () => {
    if (!company) return;
    setBusy(true);
    setFailure(null);
    try {
      const { message } = await api.quicksight.deleteCompany(company.id);
      notify.success(message);
      onDeleted(company);
    } catch (error) {
      setFailure(actionFailure(ADMIN_FAILURES.deleteCompany, error));
    } finally {
      setBusy(false);
    }
  };

  return (
    <ConfirmDialog
      open={company !== null}
      title="Delete company"
      confirmLabel="Delete"
      busyLabel="Deleting..."
      busy={busy}
      onConfirm={() => void remove()}
      onCancel={close}
    >
      {company && (
        <div className="stack">
          {failure && <FailureAlert failure={failure} onDismiss={() => setFailure(null)} />}
          <p>
            Delete <strong>{company.name}</strong>? Its QuickSight group and its row-level security rule are removed. This cannot be
            undone.
          </p>
          {company.userCount > 0 && (
            <p className="text-muted">
              It still has {countText(company.userCount, 'user', 'users')}: a company can be deleted only once nobody belongs to it.
            </p>
          )}
        </div>
      )}
    </ConfirmDialog>
  );
}

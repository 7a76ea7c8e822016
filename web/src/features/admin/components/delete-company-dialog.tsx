import type { Company } from '#contracts/companies.ts';
import { useAdminApi } from '../api/admin-api-context.tsx';
import { countText } from '../count-text.ts';
import { ADMIN_FAILURES } from '../errors.ts';
import { DeleteConfirmation } from './delete-confirmation.tsx';

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
  return (
    <DeleteConfirmation
      open={company !== null}
      title="Delete company"
      failureTitle={ADMIN_FAILURES.deleteCompany}
      onDelete={() => api.quicksight.deleteCompany(company!.id)}
      onDeleted={() => onDeleted(company!)}
      onClose={onClose}
    >
      {company && (
        <>
          <p>
            Delete <strong>{company.name}</strong>? Its QuickSight group and its row-level security rule are removed.
            This cannot be undone.
          </p>
          {company.userCount > 0 && (
            <p className="text-muted">
              It still has {countText(company.userCount, 'user', 'users')}: a company can be deleted only once nobody
              belongs to it.
            </p>
          )}
        </>
      )}
    </DeleteConfirmation>
  );
}

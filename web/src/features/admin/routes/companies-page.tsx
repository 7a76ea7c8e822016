import { useCallback, useMemo, useState } from 'react';
import type { Company } from '#contracts/companies.ts';
import { Button } from '#web/components/button.tsx';
import { Card } from '#web/components/card.tsx';
import { LoadFailure } from '#web/components/load-failure.tsx';
import { PageHeader } from '#web/components/layout/page-header.tsx';
import { Spinner } from '#web/components/spinner.tsx';
import { notify } from '#web/components/toaster.tsx';
import type { CompanyFields } from '../api/admin-api.ts';
import { useAdminApi } from '../api/admin-api-context.tsx';
import { CompaniesTable, type CompanyAction, type DashboardNames } from '../components/companies-table.tsx';
import { CompanyAccessPanel } from '../components/company-access-panel.tsx';
import { CompanyFormModal } from '../components/company-form-modal.tsx';
import { DeleteCompanyDialog } from '../components/delete-company-dialog.tsx';
import { SearchField } from '../components/search-field.tsx';
import { countText } from '../count-text.ts';
import { ADMIN_FAILURES, failureMessage } from '../errors.ts';
import { useSearch } from '../search.ts';
import { useCompanyList } from '../use-companies.ts';
import { useResource } from '#web/lib/use-resource.ts';

const NO_COMPANIES: readonly Company[] = [];

const companySearchText = (company: Company) => company.name;

const byName = (a: Company, b: Company) => a.name.localeCompare(b.name);

/** /admin/companies: the companies users belong to, and whether QuickSight's access still matches them. */
export default function CompaniesPage() {
  const api = useAdminApi();
  const list = useCompanyList();
  // The catalogue names the dashboards in use; without it they show by ID.
  const loadCatalogue = useCallback(() => api.quicksight.listCatalogue(), [api]);
  const catalogue = useResource(loadCatalogue).data;
  const dashboardNames: DashboardNames = useMemo(
    () => new Map((catalogue ?? []).map((entry) => [entry.dashboardId.toLowerCase(), entry.dashboardName])),
    [catalogue],
  );
  const { update, reload } = list;
  const companies = list.data?.companies ?? NO_COMPANIES;
  const search = useSearch(companies, companySearchText);
  const [editTarget, setEditTarget] = useState<'create' | Company | null>(null);
  const [deleting, setDeleting] = useState<Company | null>(null);

  const onAction = useCallback((action: CompanyAction, company: Company) => {
    if (action === 'edit') setEditTarget(company);
    else setDeleting(company);
  }, []);

  const save = async (fields: CompanyFields, existing: Company | null) => {
    const { message, company } = existing
      ? await api.quicksight.updateCompany(existing.id, fields)
      : await api.quicksight.createCompany(fields);
    update((current) => ({
      ...current,
      companies: [...current.companies.filter((other) => other.id !== company.id), company].sort(byName),
    }));
    setEditTarget(null);
    notify.success(message);
  };

  const onDeleted = (company: Company) => {
    update((current) => ({ ...current, companies: current.companies.filter((other) => other.id !== company.id) }));
    setDeleting(null);
  };

  return (
    <div className="stack">
      <PageHeader
        title="Companies"
        description="Each user belongs to one company; an owner account may hold several. Row-level security shows every company-scoped dashboard with the rows of the viewer's companies only."
        actions={
          <div className="row">
            <Button variant="secondary" onClick={reload} disabled={list.loading}>
              {list.loading && list.data !== undefined ? 'Refreshing...' : 'Refresh'}
            </Button>
            <Button onClick={() => setEditTarget('create')}>Add company</Button>
          </div>
        }
      />
      <Card
        aria-labelledby="companies-title"
        title={<span id="companies-title">All companies</span>}
        actions={
          <SearchField
            label="Search companies"
            placeholder="Search companies..."
            value={search.query}
            onChange={search.setQuery}
            resultText={`${search.rows.length.toLocaleString()} of ${countText(companies.length, 'company', 'companies')}`}
          />
        }
      >
        {list.error !== null && (
          <LoadFailure
            title={ADMIN_FAILURES.loadCompanies}
            detail={failureMessage(list.error)}
            onRetry={reload}
            retrying={list.loading}
          />
        )}
        {list.data === undefined ? (
          list.loading && <Spinner label="Loading companies..." />
        ) : (
          <CompaniesTable
            companies={search.rows}
            query={search.appliedQuery}
            dashboardNames={dashboardNames}
            onAction={onAction}
          />
        )}
      </Card>
      <CompanyAccessPanel recorded={list.data?.lastCheck} loading={list.loading} />

      <CompanyFormModal target={editTarget} companies={companies} onClose={() => setEditTarget(null)} onSave={save} />
      <DeleteCompanyDialog company={deleting} onClose={() => setDeleting(null)} onDeleted={onDeleted} />
    </div>
  );
}

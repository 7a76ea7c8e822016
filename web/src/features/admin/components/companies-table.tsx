import { EmptyList } from '#web/components/empty-list.tsx';
import { memo, useCallback } from 'react';
import { COMPANY_KIND_LABELS, type Company } from '#contracts/companies.ts';
import { RowActions } from '#web/components/row-actions.tsx';
import { VirtualTable } from './virtual-table.tsx';

export type CompanyAction = 'edit' | 'delete';

const COMPANY_ROW_HEIGHT = 52;
/** A row as a card on a phone: the name and the menu, then kind, users and dashboards. */
const COMPANY_CARD_HEIGHT = 112;

/** Dashboard names by dashboard ID; an ID the catalogue does not (yet) name shows as itself. */
export type DashboardNames = ReadonlyMap<string, string>;

/** The count of dashboards in use, then their names (cut short in the row, whole in the title). */
function DashboardsInUse({
  dashboards,
  names,
}: {
  readonly dashboards: readonly string[];
  readonly names: DashboardNames;
}) {
  const listed = dashboards.map((id) => names.get(id.toLowerCase()) ?? id).join(', ');
  return (
    <span className="truncate" title={listed || undefined}>
      {dashboards.length.toLocaleString()}
      {dashboards.length > 0 && <span className="text-muted"> · {listed}</span>}
    </span>
  );
}

interface CompanyRowProps {
  readonly company: Company;
  readonly ariaRowIndex: number;
  readonly dashboardNames: DashboardNames;
  readonly onAction: (action: CompanyAction, company: Company) => void;
}

const CompanyRow = memo(function CompanyRow({ company, ariaRowIndex, dashboardNames, onAction }: CompanyRowProps) {
  return (
    <tr aria-rowindex={ariaRowIndex} className="vtable-row">
      <td className="cell-primary">
        <span className="company-name truncate" title={company.name}>
          {company.name}
        </span>
      </td>
      <td data-label="Kind">{COMPANY_KIND_LABELS[company.kind]}</td>
      <td data-label="Users" className="numeric">
        {company.userCount.toLocaleString()}
      </td>
      <td data-label="Dashboards" className="cell-wide">
        <DashboardsInUse dashboards={company.dashboards} names={dashboardNames} />
      </td>
      <td className="cell-actions">
        <RowActions
          label={`Actions for ${company.name}`}
          title={company.name}
          actions={[
            { label: 'Edit', onSelect: () => onAction('edit', company) },
            { label: 'Delete', destructive: true, onSelect: () => onAction('delete', company) },
          ]}
        />
      </td>
    </tr>
  );
});

export interface CompaniesTableProps {
  readonly companies: readonly Company[];
  /** The search the rows were filtered with. */
  readonly query: string;
  readonly dashboardNames: DashboardNames;
  readonly onAction: (action: CompanyAction, company: Company) => void;
}

const companyKey = (company: Company) => company.id;

/** The companies: name, kind, users, dashboards in use and each row's menu; cards on a phone. */
export const CompaniesTable = memo(function CompaniesTable({
  companies,
  query,
  dashboardNames,
  onAction,
}: CompaniesTableProps) {
  const renderRow = useCallback(
    (company: Company, ariaRowIndex: number) => (
      <CompanyRow
        key={company.id}
        company={company}
        ariaRowIndex={ariaRowIndex}
        dashboardNames={dashboardNames}
        onAction={onAction}
      />
    ),
    [dashboardNames, onAction],
  );
  return (
    <VirtualTable
      label="Companies"
      columnCount={5}
      header={
        <>
          <th scope="col">Name</th>
          <th scope="col">Kind</th>
          <th scope="col">Users</th>
          <th scope="col">Dashboards</th>
          <th scope="col">
            <span className="visually-hidden">Actions</span>
          </th>
        </>
      }
      rows={companies}
      rowKey={companyKey}
      renderRow={renderRow}
      rowHeight={COMPANY_ROW_HEIGHT}
      cardHeight={COMPANY_CARD_HEIGHT}
      resetScrollKey={query}
      empty={
        query.trim() ? (
          <EmptyList title="No companies match your search">
            Check the spelling, or search for part of the name.
          </EmptyList>
        ) : (
          <EmptyList title="No companies yet">
            Add the first one with Add company; then give users their company on Manage Users (Edit).
          </EmptyList>
        )
      }
    />
  );
});

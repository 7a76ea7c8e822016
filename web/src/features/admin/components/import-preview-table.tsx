import { COMPANY_MESSAGES } from '#contracts/companies.ts';
import { Badge } from '#web/components/badge.tsx';
import { COMPANY_TEXTS } from '../companies.ts';
import { type PreviewRow } from '../import-preview.ts';
import { createCompaniesLabel, type NewCompaniesDecision } from './new-companies-choice.tsx';
import './tables.css';
import './import-users-dialog.css';

/** The Import Users dialog's preview: one row per line of the file, its status or its result, and why. */

export type RowResult = { readonly outcome: 'created' | 'exists' | 'failed' | 'skipped'; readonly message: string };

/** Why a row naming a company that does not exist is left out. */
export const newCompanySkipReason = (row: PreviewRow, count: number) =>
  `${COMPANY_MESSAGES.unknownCompany(row.companyName)}. Tick "${createCompaniesLabel(count)}" to create it and import this row.`;

/** Whether the row is imported: ready, and its company exists or is to be created. */
export const importable = (row: PreviewRow, decision: NewCompaniesDecision) =>
  row.status === 'ready' && (!row.newCompany || decision.create);

const STATUS_TEXT: Record<PreviewRow['status'], string> = {
  ready: 'Ready',
  exists: 'Already exists',
  invalid: 'Will be skipped',
};

/** Messages as sentences, one full stop each (some messages end in one already). */
const sentences = (messages: readonly string[]) =>
  messages.map((message) => `${message.replace(/\.$/, '')}.`).join(' ');

interface Shown {
  readonly tone: 'success' | 'neutral' | 'danger' | 'info' | 'warning';
  readonly text: string;
  readonly detail: string;
}

function resultOf(
  row: PreviewRow,
  results: ReadonlyMap<number, RowResult> | undefined,
  newCompanyCount: number,
  decision: NewCompaniesDecision,
): Shown {
  const result = results?.get(row.line);
  if (result?.outcome === 'created') return { tone: 'success', text: 'Created', detail: result.message };
  if (result?.outcome === 'exists' || row.status === 'exists')
    return { tone: 'neutral', text: 'Already exists', detail: 'Nothing was changed' };
  if (result?.outcome === 'failed') return { tone: 'danger', text: 'Failed', detail: result.message };
  if (result?.outcome === 'skipped') return { tone: 'warning', text: 'Skipped', detail: result.message };
  if (row.status === 'invalid') return { tone: 'danger', text: STATUS_TEXT.invalid, detail: sentences(row.problems) };
  if (!importable(row, decision))
    return { tone: 'warning', text: STATUS_TEXT.invalid, detail: newCompanySkipReason(row, newCompanyCount) };
  return { tone: 'info', text: results ? 'Waiting' : STATUS_TEXT.ready, detail: '' };
}

interface PreviewTableProps {
  readonly rows: readonly PreviewRow[];
  readonly results?: ReadonlyMap<number, RowResult>;
  readonly newCompanyCount: number;
  readonly decision: NewCompaniesDecision;
}

/**
 * The rows of the file, each with its Result (what will happen, or why it is skipped) right
 * after the email. Every column fits the dialog, so only the rows scroll (vertically); on a
 * phone each row is a card with the Result under the email.
 */
export function PreviewTable({ rows, results, newCompanyCount, decision }: PreviewTableProps) {
  return (
    <div className="table-scroll import-preview" role="region" aria-label="Rows of the file" tabIndex={0}>
      <table className="data-table import-preview-table">
        <colgroup>
          <col className="import-col-line" />
          <col className="import-col-email" />
          <col className="import-col-result" />
          <col className="import-col-company" />
          <col className="import-col-dashboards" />
          <col className="import-col-default" />
          <col className="import-col-role" />
        </colgroup>
        <thead>
          <tr>
            <th scope="col">Line</th>
            <th scope="col">Email</th>
            <th scope="col">Result</th>
            <th scope="col">Company</th>
            <th scope="col">Dashboards</th>
            <th scope="col">Default</th>
            <th scope="col">Role</th>
          </tr>
        </thead>
        <tbody>
          {rows.map((row) => {
            const shown = resultOf(row, results, newCompanyCount, decision);
            return (
              <tr key={row.line} className={shown.tone === 'danger' ? 'import-row-problem' : undefined}>
                <td data-label="Line">{row.line}</td>
                <td data-label="Email" className="import-cell-email">
                  {row.email}
                </td>
                <td data-label="Result" className="import-cell-result">
                  <span>
                    <Badge tone={shown.tone}>{shown.text}</Badge>
                    {shown.detail && <span className="import-row-detail">{shown.detail}</span>}
                  </span>
                </td>
                <td data-label="Company">
                  {row.companyName}
                  {row.newCompany && (
                    <>
                      {' '}
                      <Badge tone="warning">{COMPANY_TEXTS.newCompany}</Badge>
                    </>
                  )}
                </td>
                <td data-label="Dashboards">{row.dashboards.join(', ')}</td>
                <td data-label="Default">{row.defaultDashboard || row.dashboards[0] || ''}</td>
                <td data-label="Role">{row.role}</td>
              </tr>
            );
          })}
        </tbody>
      </table>
    </div>
  );
}

import type { AccessCheck, AccessDifference } from '#contracts/companies.ts';
import { Badge } from '#web/components/badge.tsx';
import { DIFFERENCE_KIND_LABELS } from '../companies.ts';
import './tables.css';
import './access-differences-table.css';

function FixResult({ difference }: { readonly difference: AccessDifference }) {
  if (difference.fixed === true) return <Badge tone="success">Fixed</Badge>;
  return (
    <>
      <Badge tone="danger">Not fixed</Badge>
      {difference.note && <div className="difference-note">{difference.note}</div>}
    </>
  );
}

/**
 * The differences of a company-access check, one row each: what differs in words, the
 * company, the user or dashboard, what the portal expects and what QuickSight holds; after
 * a fix, whether each was mended. Cards on a phone (the cells name their columns).
 */
export function AccessDifferencesTable({ check }: { readonly check: AccessCheck }) {
  return (
    <div className="table-scroll" role="region" aria-label="Differences" tabIndex={0}>
      <table className="data-table differences-table">
        <caption className="visually-hidden">Differences between the portal and QuickSight</caption>
        <thead>
          <tr>
            <th scope="col">Difference</th>
            <th scope="col">Company</th>
            <th scope="col">User or dashboard</th>
            <th scope="col">Expected</th>
            <th scope="col">Found</th>
            {check.fix && <th scope="col">Result</th>}
          </tr>
        </thead>
        <tbody>
          {check.differences.map((difference, index) => (
            <tr key={`${difference.kind}-${difference.company ?? ''}-${difference.subject ?? ''}-${index}`}>
              <td data-label="Difference">{DIFFERENCE_KIND_LABELS[difference.kind]}</td>
              <td data-label="Company">{difference.company ?? '—'}</td>
              <td data-label="User or dashboard">{difference.subject ?? '—'}</td>
              <td data-label="Expected">{difference.expected}</td>
              <td data-label="Found">{difference.found}</td>
              {check.fix && (
                <td data-label="Result">
                  <FixResult difference={difference} />
                </td>
              )}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

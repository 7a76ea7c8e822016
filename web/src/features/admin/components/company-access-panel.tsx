import type { AccessCheck } from '#contracts/companies.ts';
import { Button } from '#web/components/button.tsx';
import { Card } from '#web/components/card.tsx';
import { Spinner } from '#web/components/spinner.tsx';
import { notify } from '#web/components/toaster.tsx';
import { useServerCall } from '#web/lib/use-server-call.ts';
import { useAdminApi } from '../api/admin-api-context.tsx';
import { checkOutcomeText, COMPANY_TEXTS, lastCheckText, outstandingDifferences } from '../companies.ts';
import { countText } from '../count-text.ts';
import { actionFailure, ADMIN_FAILURES, type Failure } from '../errors.ts';
import { AccessDifferencesTable } from './access-differences-table.tsx';
import { FailureAlert } from './failure-alert.tsx';
import './company-access-panel.css';

export interface CompanyAccessPanelProps {
  /** The last check recorded (LIST_COMPANIES); undefined when the list is not loaded. */
  readonly recorded: AccessCheck | null | undefined;
  /** The list is loading. */
  readonly loading: boolean;
}

/** The later of two checks. */
const later = (a: AccessCheck | null | undefined, b: AccessCheck | null): AccessCheck | null | undefined =>
  b !== null && (a === null || a === undefined || Date.parse(b.checkedAt) >= Date.parse(a.checkedAt)) ? b : a;

/**
 * 'Company access': whether QuickSight still matches the portal's companies (one group per
 * company with its users, one row-level security rule per company, company-scoped dashboards).
 * Check now only compares; Fix makes QuickSight match the portal (the portal is the truth, so
 * it asks nothing more) and lists what it could not mend, with the reason.
 */
export function CompanyAccessPanel({ recorded, loading }: CompanyAccessPanelProps) {
  const api = useAdminApi();
  // Its result is the check run here, shown until a reload of the list brings a newer one.
  const call = useServerCall<'check' | 'fix', Failure, AccessCheck>();
  const lastCheck = later(recorded, call.result ?? null);
  const outstanding = lastCheck ? outstandingDifferences(lastCheck).length : 0;

  const run = async (fix: boolean) => {
    const work = async () => {
      const check = await api.quicksight.checkCompanyAccess(fix);
      notify.success(checkOutcomeText(check));
      return check;
    };
    await call.run(fix ? 'fix' : 'check', work, {
      failure: (error) =>
        actionFailure(fix ? ADMIN_FAILURES.fixCompanyAccess : ADMIN_FAILURES.checkCompanyAccess, error),
    });
  };

  return (
    <Card
      aria-labelledby="company-access-title"
      title={<span id="company-access-title">Company access</span>}
      actions={
        <div className="row">
          <Button
            variant="secondary"
            onClick={() => void run(false)}
            disabled={call.busy}
            aria-busy={call.isBusy('check') || undefined}
          >
            {call.isBusy('check') ? 'Checking...' : 'Check now'}
          </Button>
          {outstanding > 0 && (
            // The name stays 'Fix' while it runs; the busy state says it is under way.
            <Button onClick={() => void run(true)} disabled={call.busy} aria-busy={call.isBusy('fix') || undefined}>
              Fix
            </Button>
          )}
        </div>
      }
    >
      <div className="stack">
        <p className="text-muted">
          Compares the portal with QuickSight: one group per company holding its users, one row-level security rule per
          company, and dashboards shared by several companies only when they are company-scoped or their shared data is
          confirmed. Check now changes nothing; Fix creates missing groups, adds or removes group members and reloads
          the rules. A check also runs every day.
        </p>
        {call.failure && <FailureAlert failure={call.failure} onDismiss={() => call.setFailure(null)} />}
        {call.isBusy('fix') && <Spinner label="Fixing..." />}
        {lastCheck === undefined ? (
          loading && <Spinner label="Loading the last check..." />
        ) : (
          <p role="status" className="access-status">
            {lastCheckText(lastCheck)}
            {lastCheck && (
              <span className="text-muted">
                {' '}
                {countText(lastCheck.quicksightCalls, 'QuickSight call', 'QuickSight calls')}.
              </span>
            )}
          </p>
        )}
        {lastCheck && lastCheck.differences.length === 0 && <p className="access-match">{COMPANY_TEXTS.matches}</p>}
        {lastCheck && lastCheck.differences.length > 0 && <AccessDifferencesTable check={lastCheck} />}
      </div>
    </Card>
  );
}

import { Fragment, memo } from 'react';
import { companiesLabel, DASHBOARD_SCOPE_LABELS, type DashboardScope } from '#contracts/companies.ts';
import type { DashboardMetadata } from '#contracts/quicksight-admin.ts';
import { Badge } from '#web/components/badge.tsx';
import { Button } from '#web/components/button.tsx';
import { Card } from '#web/components/card.tsx';
import { EmptyList } from '#web/components/empty-list.tsx';
import { LoadFailure } from '#web/components/load-failure.tsx';
import { Spinner } from '#web/components/spinner.tsx';
import { RowActions } from '#web/components/row-actions.tsx';
import { failureMessage } from '../errors.ts';
import type { LoadFailureState } from './user-list-card.tsx';
import './catalogue-section.css';

export interface CatalogueSectionProps {
  /** undefined while the first load is under way. */
  readonly dashboards: readonly DashboardMetadata[] | undefined;
  readonly onAdd: () => void;
  readonly onEdit: (dashboard: DashboardMetadata) => void;
  readonly onDelete: (dashboard: DashboardMetadata) => void;
  /** The last load failed: shown with Retry in place of the cards (or above those kept). */
  readonly failure?: LoadFailureState | null;
}

/** What to do about an empty catalogue. */
const NO_DASHBOARDS_NEXT_STEP =
  'Add the first one with Add First Dashboard: its QuickSight dashboard ID, a name and its link. Then assign it to users below.';

/**
 * A link as the card shows it: without the scheme, with a line-break opportunity after each
 * slash, so a long address wraps between its parts rather than in the middle of a word.
 */
function LinkText({ link }: { readonly link: string }) {
  const parts = link.replace(/^https?:\/\//, '').split('/');
  return parts.map((part, index) => (
    <Fragment key={index}>
      {part}
      {index < parts.length - 1 && (
        <>
          /<wbr />
        </>
      )}
    </Fragment>
  ));
}

const SCOPE_TONES: Record<DashboardScope, 'success' | 'warning' | 'neutral'> = {
  'company-scoped': 'success',
  'not-scoped': 'warning',
  unknown: 'neutral',
};

const SHARED_DATA_TEXT = 'Shared data';

/**
 * Whether the dashboard's data reaches each company's users limited to their rows: the scope
 * (its reason described under it and in the title), and 'Shared data' once an admin confirmed
 * that every company may see all of it.
 */
function ScopeBadges({ dashboard }: { readonly dashboard: DashboardMetadata }) {
  if (dashboard.scope === undefined && !dashboard.sharedData) return null;
  return (
    <div className="catalogue-card-scope">
      <div className="row">
        {dashboard.scope !== undefined && (
          <Badge tone={SCOPE_TONES[dashboard.scope]} title={dashboard.scopeDetail}>
            {DASHBOARD_SCOPE_LABELS[dashboard.scope]}
          </Badge>
        )}
        {dashboard.sharedData && <Badge tone="info">{SHARED_DATA_TEXT}</Badge>}
      </div>
      {dashboard.scopeDetail && <p className="catalogue-card-scope-detail">{dashboard.scopeDetail}</p>}
    </div>
  );
}

function CatalogueCard({
  dashboard,
  onEdit,
  onDelete,
}: {
  readonly dashboard: DashboardMetadata;
  readonly onEdit: (dashboard: DashboardMetadata) => void;
  readonly onDelete: (dashboard: DashboardMetadata) => void;
}) {
  return (
    <li className="catalogue-card">
      <div className="catalogue-card-header">
        <h3 className="catalogue-card-title">{dashboard.dashboardName}</h3>
        <RowActions
          label={`Actions for dashboard ${dashboard.dashboardName}`}
          title={dashboard.dashboardName}
          actions={[
            { label: 'Edit', onSelect: () => onEdit(dashboard) },
            { label: 'Delete', destructive: true, onSelect: () => onDelete(dashboard) },
          ]}
        />
      </div>
      <ScopeBadges dashboard={dashboard} />
      <dl className="catalogue-card-fields">
        <dt>ID</dt>
        <dd>
          <code>{dashboard.dashboardId}</code>
        </dd>
        <dt>Link</dt>
        <dd>
          <a
            className="catalogue-card-link"
            href={dashboard.dashboardLink}
            target="_blank"
            rel="noopener noreferrer"
            title={dashboard.dashboardLink}
          >
            <LinkText link={dashboard.dashboardLink} />
          </a>
        </dd>
        {dashboard.companies !== undefined && dashboard.companies.length > 0 && (
          <>
            <dt>Companies</dt>
            <dd>{companiesLabel(dashboard.companies)}</dd>
          </>
        )}
      </dl>
      {dashboard.description && <p className="catalogue-card-description">{dashboard.description}</p>}
    </li>
  );
}

/** The Dashboards card: the catalogue as cards, with a count badge and Add Dashboard. */
export const CatalogueSection = memo(function CatalogueSection({
  dashboards,
  onAdd,
  onEdit,
  onDelete,
  failure,
}: CatalogueSectionProps) {
  const empty = dashboards !== undefined && dashboards.length === 0;
  const failed = failure != null && failure.error !== null;
  return (
    <Card
      aria-labelledby="catalogue-title"
      title={
        <span id="catalogue-title" className="row">
          Dashboards
          {dashboards !== undefined && (
            <Badge tone="info">
              {dashboards.length}
              <span className="visually-hidden"> dashboards</span>
            </Badge>
          )}
        </span>
      }
      actions={<Button onClick={onAdd}>{empty ? 'Add First Dashboard' : 'Add Dashboard'}</Button>}
    >
      {failed && (
        <LoadFailure
          title={failure.title}
          detail={failureMessage(failure.error)}
          onRetry={failure.onRetry}
          retrying={failure.retrying}
        />
      )}
      {dashboards === undefined ? (
        (!failed || failure.retrying) && <Spinner label="Loading dashboards..." />
      ) : empty ? (
        <div className="catalogue-empty">
          <EmptyList title="No dashboards">{NO_DASHBOARDS_NEXT_STEP}</EmptyList>
        </div>
      ) : (
        <ul className="catalogue-grid">
          {dashboards.map((dashboard) => (
            <CatalogueCard key={dashboard.id} dashboard={dashboard} onEdit={onEdit} onDelete={onDelete} />
          ))}
        </ul>
      )}
    </Card>
  );
});

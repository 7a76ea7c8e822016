import { useEffect, useId, useState, type ChangeEvent } from 'react';
import { IMPORT_COLUMNS, IMPORT_TEMPLATE, MAX_IMPORT_ROWS } from '../../../../../contracts/user-import.ts';
import { Alert } from '../../../components/alert.tsx';
import { Badge } from '../../../components/badge.tsx';
import { Button } from '../../../components/button.tsx';
import { Modal } from '../../../components/modal.tsx';
import { Spinner } from '../../../components/spinner.tsx';
import { downloadFile } from '../../../lib/csv.ts';
import { useAdminApi } from '../api/admin-api-context.tsx';
import { ADMIN_FAILURES, failureText } from '../errors.ts';
import { previewImport, readImportFile, type PreviewRow } from '../import-preview.ts';

/** Rows sent at the same time: enough to keep the import moving, few enough to spare the services. */
const PARALLEL_ROWS = 3;

type RowResult = { readonly outcome: 'created' | 'exists' | 'failed'; readonly message: string };

type Stage =
  | { readonly kind: 'choose'; readonly problems: readonly string[]; readonly fileName?: string }
  | { readonly kind: 'preview'; readonly fileName: string; readonly rows: readonly PreviewRow[] }
  | { readonly kind: 'importing' | 'done'; readonly fileName: string; readonly rows: readonly PreviewRow[]; readonly results: ReadonlyMap<number, RowResult> };

export interface ImportUsersDialogProps {
  readonly open: boolean;
  /** Emails of the accounts that exist (their rows are reported as already existing). */
  readonly existingEmails: readonly string[];
  /** `imported` is true when at least one account was created. */
  readonly onClose: (imported: boolean) => void;
}

const STATUS_TEXT: Record<PreviewRow['status'], string> = { ready: 'Ready', exists: 'Already exists', invalid: 'Will be skipped' };

function resultOf(row: PreviewRow, results: ReadonlyMap<number, RowResult> | undefined): { tone: 'success' | 'neutral' | 'danger' | 'info'; text: string; detail: string } {
  const result = results?.get(row.line);
  if (result?.outcome === 'created') return { tone: 'success', text: 'Created', detail: result.message };
  if (result?.outcome === 'exists' || row.status === 'exists') return { tone: 'neutral', text: 'Already exists', detail: 'Nothing was changed' };
  if (result?.outcome === 'failed') return { tone: 'danger', text: 'Failed', detail: result.message };
  if (row.status === 'invalid') return { tone: 'danger', text: STATUS_TEXT.invalid, detail: row.problems.join('. ') };
  return { tone: 'info', text: results ? 'Waiting' : STATUS_TEXT.ready, detail: '' };
}

function PreviewTable({ rows, results }: { readonly rows: readonly PreviewRow[]; readonly results?: ReadonlyMap<number, RowResult> }) {
  return (
    <div className="table-scroll import-preview" role="region" aria-label="Rows of the file" tabIndex={0}>
      <table className="data-table">
        <thead>
          <tr>
            <th scope="col">Line</th>
            <th scope="col">Email</th>
            <th scope="col">Company</th>
            <th scope="col">Dashboards</th>
            <th scope="col">Default</th>
            <th scope="col">Role</th>
            <th scope="col">Result</th>
          </tr>
        </thead>
        <tbody>
          {rows.map((row) => {
            const shown = resultOf(row, results);
            return (
              <tr key={row.line} className={shown.tone === 'danger' ? 'import-row-problem' : undefined}>
                <td>{row.line}</td>
                <td>{row.email}</td>
                <td>{row.companyName}</td>
                <td>{row.dashboards.join(', ')}</td>
                <td>{row.defaultDashboard || row.dashboards[0] || ''}</td>
                <td>{row.role}</td>
                <td>
                  <Badge tone={shown.tone}>{shown.text}</Badge>
                  {shown.detail && <div className="import-row-detail">{shown.detail}</div>}
                </td>
              </tr>
            );
          })}
        </tbody>
      </table>
    </div>
  );
}

function ImportUsersContent({ existingEmails, onClose }: Omit<ImportUsersDialogProps, 'open'>) {
  const api = useAdminApi();
  const fileId = useId();
  const [catalogue, setCatalogue] = useState<readonly string[] | null>(null);
  const [catalogueError, setCatalogueError] = useState<unknown>(null);
  const [stage, setStage] = useState<Stage>({ kind: 'choose', problems: [] });

  useEffect(() => {
    let current = true;
    api.quicksight.listCatalogue().then(
      (dashboards) => current && setCatalogue(dashboards.map((dashboard) => dashboard.dashboardId)),
      (failure: unknown) => current && setCatalogueError(failure),
    );
    return () => {
      current = false;
    };
  }, [api]);

  const choose = async (event: ChangeEvent<HTMLInputElement>) => {
    const file = event.target.files?.[0];
    if (!file || catalogue === null) return;
    const read = await readImportFile(file);
    if ('problem' in read) {
      setStage({ kind: 'choose', problems: [read.problem], fileName: file.name });
      return;
    }
    const preview = previewImport(read.text, { catalogue, existingEmails });
    setStage('rows' in preview ? { kind: 'preview', fileName: file.name, rows: preview.rows } : { kind: 'choose', problems: preview.fileProblems, fileName: file.name });
  };

  const run = async (rows: readonly PreviewRow[], fileName: string) => {
    const results = new Map<number, RowResult>();
    const publish = (kind: 'importing' | 'done') => setStage({ kind, fileName, rows, results: new Map(results) });
    publish('importing');
    const queue = rows.filter((row) => row.status === 'ready' && row.request !== undefined);
    const worker = async () => {
      for (let row = queue.shift(); row !== undefined; row = queue.shift()) {
        try {
          const answer = await api.quicksight.importUser(row.request!);
          results.set(row.line, { outcome: answer.outcome, message: answer.message });
        } catch (failure) {
          results.set(row.line, { outcome: 'failed', message: failureText(failure, ADMIN_FAILURES.importUsers) });
        }
        publish('importing');
      }
    };
    await Promise.all(Array.from({ length: PARALLEL_ROWS }, worker));
    publish('done');
  };

  const rows = stage.kind === 'choose' ? [] : stage.rows;
  const ready = rows.filter((row) => row.status === 'ready').length;
  const skipped = rows.filter((row) => row.status === 'invalid').length;
  const existing = rows.filter((row) => row.status === 'exists').length;
  const results = stage.kind === 'importing' || stage.kind === 'done' ? stage.results : undefined;
  const count = (outcome: RowResult['outcome']) => [...(results?.values() ?? [])].filter((result) => result.outcome === outcome).length;
  const busy = stage.kind === 'importing';
  const created = count('created');

  return (
    <Modal
      open
      wide
      title="Import Users"
      busy={busy}
      onClose={() => onClose(created > 0)}
      footer={
        stage.kind === 'done' ? (
          <Button onClick={() => onClose(created > 0)}>Done</Button>
        ) : (
          <>
            <Button variant="secondary" onClick={() => onClose(false)} disabled={busy}>
              Cancel
            </Button>
            <Button disabled={stage.kind !== 'preview' || ready === 0} onClick={() => stage.kind === 'preview' && void run(stage.rows, stage.fileName)}>
              {busy ? 'Importing...' : `Import ${ready} ${ready === 1 ? 'user' : 'users'}`}
            </Button>
          </>
        )
      }
    >
      <div className="stack">
        <p className="text-muted">
          A CSV file with the header <code>{IMPORT_COLUMNS.join(',')}</code>, columns in any order: dashboard ids separated by
          <code>;</code>, the default one of them (the first when empty), role <code>Users</code> (the default) or <code>Admins</code>. At
          most {MAX_IMPORT_ROWS} rows. Every row is checked before anything is created; each new user receives an invitation email with a
          temporary password.
        </p>
        <div className="row import-file-row">
          <div className="field">
            <label className="field-label" htmlFor={fileId}>
              CSV file
            </label>
            <input id={fileId} type="file" accept=".csv,text/csv" disabled={busy || catalogue === null} onChange={(event) => void choose(event)} />
          </div>
          <Button variant="secondary" size="sm" onClick={() => downloadFile('user-import-template.csv', 'text/csv;charset=utf-8', IMPORT_TEMPLATE)}>
            Download template
          </Button>
        </div>
        {catalogue === null && catalogueError === null && <Spinner label="Loading the dashboard catalogue..." />}
        {catalogueError !== null && (
          <Alert tone="error" title={ADMIN_FAILURES.loadDashboards}>
            <p>{failureText(catalogueError, ADMIN_FAILURES.loadDashboards)}</p>
          </Alert>
        )}
        {stage.kind === 'choose' && stage.problems.length > 0 && (
          <Alert tone="error" title={`${stage.fileName ?? 'The file'} cannot be imported`}>
            <ul>
              {stage.problems.map((problem) => (
                <li key={problem}>{problem}</li>
              ))}
            </ul>
          </Alert>
        )}
        {stage.kind !== 'choose' && (
          <p role="status">
            {stage.fileName}: {rows.length} {rows.length === 1 ? 'row' : 'rows'} — {ready} ready, {skipped} will be skipped, {existing} already
            exist.
          </p>
        )}
        {results !== undefined && (
          <div className="import-progress">
            <label className="field-label" htmlFor={`${fileId}-progress`}>
              {stage.kind === 'done' ? 'Import finished' : 'Importing...'} {results.size} of {ready}
            </label>
            <progress id={`${fileId}-progress`} max={Math.max(ready, 1)} value={results.size} />
            {stage.kind === 'done' && (
              <p role="status">
                {created} created, {count('exists') + existing} already existed, {count('failed')} failed, {skipped} skipped.
              </p>
            )}
          </div>
        )}
        {rows.length > 0 && <PreviewTable rows={rows} {...(results ? { results } : {})} />}
      </div>
    </Modal>
  );
}

/** 'Import Users': a CSV file checked row by row, then imported with a progress bar and a result per row. */
export function ImportUsersDialog({ open, ...props }: ImportUsersDialogProps) {
  return open ? <ImportUsersContent {...props} /> : null;
}

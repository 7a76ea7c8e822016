import { useEffect, useId, useRef, useState, type ChangeEvent } from 'react';
import { IMPORT_COLUMNS, IMPORT_TEMPLATE, MAX_IMPORT_ROWS } from '#contracts/user-import.ts';
import { Alert } from '#web/components/alert.tsx';
import { Button } from '#web/components/button.tsx';
import { FilePicker } from '#web/components/file-picker.tsx';
import { Modal } from '#web/components/modal.tsx';
import { Spinner } from '#web/components/spinner.tsx';
import { downloadFile } from '#web/lib/csv.ts';
import { ApiError } from '#web/lib/api.ts';
import { useAdminApi } from '../api/admin-api-context.tsx';
import { actionFailure, ADMIN_FAILURES, failureText, type Failure } from '../errors.ts';
import {
  newCompaniesOf,
  previewImport,
  readImportFile,
  type PreviewContext,
  type PreviewRow,
} from '../import-preview.ts';
import { NewCompaniesChoice, type NewCompaniesDecision } from './new-companies-choice.tsx';
import './tables.css';
import './import-users-dialog.css';
import { importable, newCompanySkipReason, PreviewTable, type RowResult } from './import-preview-table.tsx';
/** Rows sent at the same time: enough to keep the import moving, few enough to spare the services. */
const PARALLEL_ROWS = 3;

const NO_NEW_COMPANIES: NewCompaniesDecision = { create: false, kind: 'manufacturer' };

type Stage =
  | { readonly kind: 'choose'; readonly problems: readonly string[]; readonly fileName?: string }
  | { readonly kind: 'preview'; readonly fileName: string; readonly rows: readonly PreviewRow[] }
  | {
      readonly kind: 'importing' | 'done';
      readonly fileName: string;
      readonly rows: readonly PreviewRow[];
      readonly results: ReadonlyMap<number, RowResult>;
    };

export interface ImportUsersDialogProps {
  readonly open: boolean;
  /** Emails of the accounts that exist (their rows are reported as already existing). */
  readonly existingEmails: readonly string[];
  /** `imported` is true when at least one account was created. */
  readonly onClose: (imported: boolean) => void;
}

function ImportUsersContent({ existingEmails, onClose }: Omit<ImportUsersDialogProps, 'open'>) {
  const api = useAdminApi();
  const fileId = useId();
  // The catalogue and the companies every row is checked against.
  const [known, setKnown] = useState<Omit<PreviewContext, 'existingEmails'> | null>(null);
  const [loadFailure, setLoadFailure] = useState<Failure | null>(null);
  const [stage, setStage] = useState<Stage>({ kind: 'choose', problems: [] });
  const [decision, setDecision] = useState<NewCompaniesDecision>(NO_NEW_COMPANIES);
  // A file chosen before the catalogue and the companies are there waits for them.
  const [chosen, setChosen] = useState<File | null>(null);
  const existing = useRef(existingEmails);
  useEffect(() => {
    existing.current = existingEmails;
  });

  useEffect(() => {
    let current = true;
    const labelled = <T,>(load: Promise<T>, title: string) =>
      load.catch((error: unknown) => Promise.reject(actionFailure(title, error)));
    Promise.all([
      labelled(api.quicksight.listCatalogue(), ADMIN_FAILURES.loadDashboards),
      labelled(api.quicksight.listCompanies(), ADMIN_FAILURES.loadCompanies),
    ]).then(
      ([dashboards, list]) =>
        current &&
        setKnown({
          catalogue: dashboards.map((dashboard) => dashboard.dashboardId),
          companies: list.companies.map((company) => company.name),
        }),
      (failure: Failure) => current && setLoadFailure(failure),
    );
    return () => {
      current = false;
    };
  }, [api]);

  const choose = (event: ChangeEvent<HTMLInputElement>) => {
    const file = event.target.files?.[0];
    if (!file) return;
    setDecision(NO_NEW_COMPANIES);
    setStage({ kind: 'choose', problems: [], fileName: file.name });
    setChosen(file);
  };

  useEffect(() => {
    if (chosen === null || known === null) return;
    let current = true;
    void readImportFile(chosen).then((read) => {
      if (!current) return;
      if ('problem' in read) return setStage({ kind: 'choose', problems: [read.problem], fileName: chosen.name });
      const preview = previewImport(read.text, { ...known, existingEmails: existing.current });
      setStage(
        'rows' in preview
          ? { kind: 'preview', fileName: chosen.name, rows: preview.rows }
          : { kind: 'choose', problems: preview.fileProblems, fileName: chosen.name },
      );
    });
    return () => {
      current = false;
    };
  }, [chosen, known]);

  /** Creates the new companies one by one; answers the failure of each that could not be, by name (lower case). */
  const createCompanies = async (names: readonly string[]): Promise<Map<string, string>> => {
    const failed = new Map<string, string>();
    for (const name of names) {
      try {
        await api.quicksight.createCompany({ name, kind: decision.kind });
      } catch (error) {
        // A 409 means another admin created it meanwhile: its rows can go ahead.
        if (!(error instanceof ApiError && error.status === 409))
          failed.set(name.toLowerCase(), failureText(error, ADMIN_FAILURES.createCompanies));
      }
    }
    return failed;
  };

  const run = async (rows: readonly PreviewRow[], fileName: string) => {
    const results = new Map<number, RowResult>();
    const publish = (kind: 'importing' | 'done') => setStage({ kind, fileName, rows, results: new Map(results) });
    publish('importing');
    const names = newCompaniesOf(rows);
    const notCreated = decision.create ? await createCompanies(names) : new Map<string, string>();
    for (const row of rows) {
      if (row.status !== 'ready' || !row.newCompany) continue;
      if (!decision.create)
        results.set(row.line, { outcome: 'skipped', message: newCompanySkipReason(row, names.length) });
      const problem = notCreated.get(row.companyName.toLowerCase());
      if (problem !== undefined)
        results.set(row.line, {
          outcome: 'failed',
          message: `Company "${row.companyName}" could not be created: ${problem}`,
        });
    }
    publish('importing');
    const queue = rows.filter((row) => row.status === 'ready' && row.request !== undefined && !results.has(row.line));
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
  const newCompanies = newCompaniesOf(rows);
  const readyRows = rows.filter((row) => row.status === 'ready').length;
  const ready = rows.filter((row) => importable(row, decision)).length;
  const skipped = rows.filter((row) => row.status === 'invalid').length + readyRows - ready;
  const existingRows = rows.filter((row) => row.status === 'exists').length;
  const results = stage.kind === 'importing' || stage.kind === 'done' ? stage.results : undefined;
  const count = (outcome: RowResult['outcome']) =>
    [...(results?.values() ?? [])].filter((result) => result.outcome === outcome).length;
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
            <Button
              disabled={stage.kind !== 'preview' || ready === 0}
              onClick={() => stage.kind === 'preview' && void run(stage.rows, stage.fileName)}
            >
              {busy ? 'Importing...' : `Import ${ready} ${ready === 1 ? 'user' : 'users'}`}
            </Button>
          </>
        )
      }
    >
      <div className="stack">
        <p className="text-muted import-columns">
          A CSV file with the header <code>{IMPORT_COLUMNS.join(',')}</code>, columns in any order: dashboard ids
          separated by
          <code>;</code>, the default one of them (the first when empty), role <code>Users</code> (the default) or{' '}
          <code>Admins</code>. At most {MAX_IMPORT_ROWS} rows. Every row is checked before anything is created; each new
          user receives an invitation email with a temporary password.
        </p>
        <div className="row import-file-row">
          <FilePicker
            id={fileId}
            label="CSV file"
            buttonText="Choose a CSV file"
            accept=".csv,text/csv"
            disabled={busy}
            fileName={stage.fileName}
            onChange={choose}
          />
          <Button
            variant="secondary"
            size="sm"
            onClick={() => downloadFile('user-import-template.csv', 'text/csv;charset=utf-8', IMPORT_TEMPLATE)}
          >
            Download template
          </Button>
        </div>
        {known === null && loadFailure === null && (
          <Spinner label="Loading the dashboard catalogue and the companies..." />
        )}
        {loadFailure !== null && (
          <Alert tone="error" title={loadFailure.title}>
            {loadFailure.lines.map((line) => (
              <p key={line}>{line}</p>
            ))}
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
            {stage.fileName}: {rows.length} {rows.length === 1 ? 'row' : 'rows'} — {ready} ready, {skipped} will be
            skipped, {existingRows} already {existingRows === 1 ? 'exists' : 'exist'}.
          </p>
        )}
        {results !== undefined && (
          <div className="import-progress">
            <label className="field-label" htmlFor={`${fileId}-progress`}>
              {stage.kind === 'done' ? 'Import finished' : `Importing... ${results.size} of ${readyRows}`}
            </label>
            <progress id={`${fileId}-progress`} max={Math.max(readyRows, 1)} value={results.size} />
            {stage.kind === 'done' && (
              <p role="status">
                {created} created, {count('exists') + existingRows} already existed, {count('failed')} failed, {skipped}{' '}
                skipped.
              </p>
            )}
          </div>
        )}
        {newCompanies.length > 0 && (
          <NewCompaniesChoice
            names={newCompanies}
            value={decision}
            onChange={setDecision}
            disabled={stage.kind !== 'preview'}
          />
        )}
        {rows.length > 0 && (
          <PreviewTable
            rows={rows}
            newCompanyCount={newCompanies.length}
            decision={decision}
            {...(results ? { results } : {})}
          />
        )}
      </div>
    </Modal>
  );
}

/** 'Import Users': a CSV file checked row by row, then imported with a progress bar and a result per row. */
export function ImportUsersDialog({ open, ...props }: ImportUsersDialogProps) {
  return open ? <ImportUsersContent {...props} /> : null;
}

import { spawn } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { expect, it } from 'vitest';

const repoRoot = fileURLToPath(new URL('../..', import.meta.url));
const benchModules = readdirSync(new URL('../../bench/', import.meta.url)).filter((file) => file.endsWith('.bench.ts'));
/** Each module is stopped by the runner after 10 minutes; the whole smoke run is far shorter. */
const SMOKE_TIMEOUT_MS = 1_800_000;

interface SmokeRun {
  readonly code: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

/** `npm run bench -- --smoke`, in a process of its own, outside the test runner's environment. */
function runSmoke(): Promise<SmokeRun> {
  // The test runner's variables (NODE_ENV=test among them) would change what the modules build and run.
  const env = Object.fromEntries(
    Object.entries(process.env).filter(
      ([name]) => !name.startsWith('VITEST') && name !== 'NODE_ENV' && name !== 'TEST',
    ),
  );
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', 'bench/run.ts', '--smoke'], {
      cwd: repoRoot,
      env,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

/** The table's rows as cells (area, metric, value, target, ok), without the header and rule. */
const tableRows = (table: string) =>
  table
    .split('\n')
    .filter((line) => line.startsWith('| '))
    .slice(1)
    .map((line) =>
      line
        .slice(2, -2)
        .split(' | ')
        .map((cell) => cell.trim()),
    );

it(
  'runs every bench module at its smoke scale with no error row and every count and size target met',
  async () => {
    const run = await runSmoke();
    // The runner names the rows that failed after the table: errors and missed count and size targets.
    const summary = run.stderr.lastIndexOf('smoke run failed');
    const failures = summary === -1 ? run.stderr.slice(-4_000) : run.stderr.slice(summary);
    const rows = tableRows(run.stdout);
    const errorRows = rows.filter(([, metric]) => metric === 'error').map((cells) => cells.join(' | '));

    expect(errorRows, `error rows:\n${errorRows.join('\n')}`).toEqual([]);
    expect(run.code, `the smoke run exited ${run.code}:\n${failures}\n\n${run.stdout}`).toBe(0);
    expect(run.stderr).toContain(`${benchModules.length} modules took`);
    // Every module reported rows under its own area: none vanished from the table.
    expect(rows.length).toBeGreaterThanOrEqual(benchModules.length);
    // The sign-in budget (ARCHITECTURE.md): the scripts that finish a sign-in, identity library
    // included, weigh at most 108 KB gzip.
    const signIn = rows.find(
      ([area, metric]) => area === 'web' && metric?.startsWith('sign-in JS to finish a sign-in'),
    );
    expect(signIn?.[3]).toBe('<= 108 KB');
    expect(Number(signIn?.[2]?.replace(/ KB$/, ''))).toBeLessThanOrEqual(108);
  },
  SMOKE_TIMEOUT_MS,
);

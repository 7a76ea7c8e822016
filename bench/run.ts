/**
 * `npm run bench`: runs every bench module in this folder, each in a process of its own
 * (bench/module.ts), and prints one table. `npm run bench -- admin` runs the modules whose
 * file name starts with `admin`.
 *
 * `npm run bench -- --smoke` runs each module at its small scale and exits non-zero when a
 * row is an error or misses a count or size target (calls made, rows listed, bytes of a
 * build), naming those rows;
 * `npm test` runs it. Times vary on shared machines: they are reported, never failed on.
 * Either way the run exits non-zero when a module fails (an `error` row).
 */
import { spawn } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { ModuleReport } from './module.ts';
import type { BenchRow } from './types.ts';

const here = fileURLToPath(new URL('.', import.meta.url));
const args = process.argv.slice(2);
const smoke = args.includes('--smoke');
const only = args.filter((arg) => !arg.startsWith('--'));
const modules = readdirSync(here)
  .filter((f) => f.endsWith('.bench.ts'))
  .filter((f) => only.length === 0 || only.some((name) => f.startsWith(name)))
  .sort();

/**
 * Modules run side by side in a smoke run, which checks counts, not times, and one at a time
 * otherwise, so that their timings do not disturb each other.
 */
const CONCURRENCY = smoke ? 2 : 1;
/**
 * A module that takes longer than this is stopped and reported as an error. The smoke limit is
 * over three times the slowest module measured while the rest of `npm test` runs on a 2-core
 * machine (the first start of a fresh copy).
 */
const MODULE_TIMEOUT_MS = smoke ? 600_000 : 1_800_000;
const STDERR_TAIL_CHARS = 2_000;

const areaOf = (file: string) => file.replace('.bench.ts', '');
const errorRow = (file: string, message: string): BenchRow => ({
  area: areaOf(file),
  metric: 'error',
  value: message,
  ok: false,
});

/** Runs one module in a child process (its own process group) and answers its rows. */
function runModule(file: string): Promise<BenchRow[]> {
  return new Promise((resolvePromise) => {
    const child = spawn(
      process.execPath,
      ['--import', 'tsx', join(here, 'module.ts'), file, ...(smoke ? ['--smoke'] : [])],
      {
        stdio: ['ignore', 'pipe', 'pipe', 'ipc'],
        detached: true,
        // The SDK's notice about its future Node 22 floor is noise here (as in vitest.config.ts).
        env: { AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true', ...process.env },
      },
    );
    let report: ModuleReport | undefined;
    let stderrTail = '';
    let timedOut = false;
    // The table owns stdout: whatever a module prints goes to stderr, named when modules run side by side.
    const forward = (chunk: Buffer) =>
      process.stderr.write(CONCURRENCY === 1 ? chunk : chunk.toString().replace(/^(?=.)/gm, `[${areaOf(file)}] `));
    child.stdout!.on('data', forward);
    child.stderr!.on('data', (chunk: Buffer) => {
      forward(chunk);
      stderrTail = (stderrTail + chunk.toString()).slice(-STDERR_TAIL_CHARS);
    });
    child.on('message', (message: ModuleReport) => {
      report = message;
    });
    const timer = setTimeout(() => {
      timedOut = true;
      try {
        process.kill(-child.pid!, 'SIGKILL');
      } catch {
        // Already gone.
      }
    }, MODULE_TIMEOUT_MS);
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      if (report !== undefined && 'rows' in report) {
        resolvePromise(report.rows.length > 0 ? report.rows : [errorRow(file, 'the module returned no rows')]);
      } else if (report !== undefined) {
        resolvePromise([errorRow(file, report.error)]);
      } else if (timedOut) {
        resolvePromise([errorRow(file, `stopped after ${MODULE_TIMEOUT_MS / 1000} s without reporting`)]);
      } else {
        const lastLine = stderrTail.trim().split('\n').at(-1) ?? '';
        resolvePromise([
          errorRow(
            file,
            `the module's process exited (${signal ?? `code ${code}`}) without reporting${lastLine ? `: ${lastLine}` : ''}`,
          ),
        ]);
      }
    });
  });
}

const seconds = (since: number) => `${((Date.now() - since) / 1000).toFixed(1)} s`;
const results: BenchRow[][] = [];
const runStarted = Date.now();
let next = 0;
const lane = async () => {
  for (let index = next++; index < modules.length; index = next++) {
    const file = modules[index]!;
    process.stderr.write(`running ${file}${smoke ? ' (smoke)' : ''}...\n`);
    const started = Date.now();
    results[index] = await runModule(file);
    process.stderr.write(`${file} took ${seconds(started)}\n`);
  }
};
await Promise.all(Array.from({ length: CONCURRENCY }, lane));
process.stderr.write(`${modules.length} modules took ${seconds(runStarted)}\n`);
// In the modules' order, however they were scheduled.
const rows = results.flat();

const headers = ['area', 'metric', 'value', 'target', 'ok'] as const;
/** One line per row: an error's message may span several. */
const oneLine = (text: string) => text.replace(/\s*\n\s*/g, ' ');
const cellsOf = (r: BenchRow) =>
  [r.area, r.metric, r.value, r.target ?? '', r.ok === undefined ? '' : r.ok ? 'yes' : 'NO'].map(oneLine);
const cells = rows.map(cellsOf);
const widths = headers.map((h, i) => Math.max(h.length, ...cells.map((c) => c[i]!.length)));
const line = (values: readonly string[]) => `| ${values.map((v, i) => v.padEnd(widths[i]!)).join(' | ')} |`;
console.log(line(headers));
console.log(`|${widths.map((w) => '-'.repeat(w + 2)).join('|')}|`);
for (const c of cells) console.log(line(c));

/** Rows that fail the run: errors always; missed count and size targets in a smoke run. */
const failing = rows.filter(
  (r) => r.metric === 'error' || (smoke && r.ok === false && (r.kind === 'count' || r.kind === 'size')),
);
if (modules.length === 0) {
  console.error(`no bench module matches ${only.join(', ')}`);
  process.exitCode = 1;
} else if (failing.length > 0) {
  console.error(`\n${smoke ? 'smoke run failed' : 'bench failed'}: ${failing.length} row(s)`);
  for (const r of failing)
    console.error(`  ${r.area} | ${r.metric} | ${oneLine(r.value)}${r.target ? ` (target ${r.target})` : ''}`);
  process.exitCode = 1;
}

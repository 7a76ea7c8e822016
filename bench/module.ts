/**
 * Runs one bench module in this process: `tsx bench/module.ts <file>.bench.ts [--smoke]`.
 * bench/run.ts starts one of these per module, so no module sees the environment variables,
 * mocked clients or cached handlers another one left behind. The rows (or the error) go to
 * the parent over IPC; run alone, they are printed as JSON on stdout.
 */
import { resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { BenchModule, BenchRow } from './types.ts';

/** What a module process reports. */
export type ModuleReport = { readonly rows: BenchRow[] } | { readonly error: string };

const here = fileURLToPath(new URL('.', import.meta.url));
const [file, ...flags] = process.argv.slice(2);
if (file === undefined) throw new Error('usage: tsx bench/module.ts <name>.bench.ts [--smoke]');

let report: ModuleReport;
try {
  const mod = (await import(pathToFileURL(resolve(here, file)).href)) as BenchModule;
  report = { rows: await mod.run({ smoke: flags.includes('--smoke') }) };
} catch (error) {
  report = { error: error instanceof Error ? error.message : String(error) };
  if (error instanceof Error && error.stack) process.stderr.write(`${error.stack}\n`);
}

// Exit once reported: a module's servers or timers must not keep the process (and the run) alive.
if (process.send) process.send(report, () => process.exit(0));
else process.stdout.write(`${JSON.stringify(report)}\n`, () => process.exit(0));

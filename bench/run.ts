/**
 * `npm run bench`: runs every bench module in this folder and prints one table.
 * Timings vary on shared machines; the table is for reading, not for pass/fail gates.
 */
import { readdirSync } from 'node:fs';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { join } from 'node:path';
import type { BenchModule, BenchRow } from './types.ts';

const here = fileURLToPath(new URL('.', import.meta.url));
const only = process.argv.slice(2);
const modules = readdirSync(here)
  .filter((f) => f.endsWith('.bench.ts'))
  .filter((f) => only.length === 0 || only.some((name) => f.startsWith(name)))
  .sort();

const rows: BenchRow[] = [];
for (const file of modules) {
  const mod = (await import(pathToFileURL(join(here, file)).href)) as BenchModule;
  process.stderr.write(`running ${file}...\n`);
  try {
    rows.push(...(await mod.run()));
  } catch (error) {
    rows.push({ area: file.replace('.bench.ts', ''), metric: 'error', value: (error as Error).message, ok: false });
  }
}

const headers = ['area', 'metric', 'value', 'target', 'ok'] as const;
const cells = rows.map((r) => [r.area, r.metric, r.value, r.target ?? '', r.ok === undefined ? '' : r.ok ? 'yes' : 'NO']);
const widths = headers.map((h, i) => Math.max(h.length, ...cells.map((c) => c[i]!.length)));
const line = (values: readonly string[]) => `| ${values.map((v, i) => v.padEnd(widths[i]!)).join(' | ')} |`;
console.log(line(headers));
console.log(`|${widths.map((w) => '-'.repeat(w + 2)).join('|')}|`);
for (const c of cells) console.log(line(c));
process.exitCode = rows.some((r) => r.metric === 'error') ? 1 : 0;

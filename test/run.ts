/**
 * `npm test`: every test project, in four lanes that run side by side, and a fifth that starts
 * when the first of them ends. The browser journeys and the files that drive whole local stacks
 * spend much of their time waiting (on the browser, a stack, the 30-second authenticator steps),
 * so they run next to the unit, infrastructure, web and conformance files instead of after them.
 * The bench smoke, which needs nothing the others make, fills the processor time the first lane
 * to end leaves free; which lane that is varies from run to run. Each lane is one
 * `vitest run`; at the end the run prints each lane's and each project's time, repeats each
 * failure, and exits non-zero when any lane failed.
 *
 * `npm test -- <vitest arguments>` passes the arguments to every lane (a file filter, say).
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ensureChromium } from './support/chromium.ts';
import {
  formatFailures,
  formatProjectTimes,
  PROJECT_TIMES_FILE_ENV,
  type ProjectTime,
} from './support/project-times.ts';

const projectRoot = fileURLToPath(new URL('..', import.meta.url));
const vitest = join(projectRoot, 'node_modules', 'vitest', 'vitest.mjs');
const extraArgs = process.argv.slice(2);
/**
 * With arguments (a file filter, say), a lane whose projects hold no matching file passes
 * instead of failing; the run fails when no lane ran a test at all.
 */
const filtered = extraArgs.length > 0;

interface Lane {
  readonly name: string;
  readonly projects: readonly string[];
  readonly args?: readonly string[];
}

/**
 * The journeys run in two lanes, each with a local stack of its own (the e2e global set-up), so
 * they share no account, no authenticator step and no data; their files are split by expected
 * time (test/support/balanced-sequencer.ts).
 */
const LANES: readonly Lane[] = [
  { name: 'journeys-1', projects: ['e2e'], args: ['--shard=1/2'] },
  { name: 'journeys-2', projects: ['e2e'], args: ['--shard=2/2'] },
  { name: 'units', projects: ['unit', 'local', 'web', 'web-isolated', 'conformance'] },
  { name: 'stacks', projects: ['stacks', 'tools', 'infra'] },
];
/**
 * Started when the first of {@link LANES} ends: measured on a clean clone, the bench smoke in a
 * lane of its own from the start slowed the lane that ends last (13 min 15 s against 11 min 12 s),
 * and inside a journeys lane it lengthened that lane by its whole time.
 */
const TAIL_LANE: Lane = { name: 'bench', projects: ['bench'] };

interface LaneResult {
  readonly lane: Lane;
  readonly code: number;
  readonly seconds: number;
  readonly projects: readonly ProjectTime[];
}

const scratch = mkdtempSync(join(tmpdir(), 'portal-test-run-'));

function runLane(lane: Lane): Promise<LaneResult> {
  const timesFile = join(scratch, `${lane.name}.json`);
  const started = Date.now();
  return new Promise((resolve) => {
    const child = spawn(
      process.execPath,
      [
        vitest,
        'run',
        ...lane.projects.flatMap((project) => ['--project', project]),
        ...(lane.args ?? []),
        ...(filtered ? ['--passWithNoTests'] : []),
        ...extraArgs,
      ],
      {
        cwd: projectRoot,
        env: { ...process.env, [PROJECT_TIMES_FILE_ENV]: timesFile },
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    // The lanes write to one terminal: each line says which lane it comes from.
    const prefix = `[${lane.name}] `;
    const forward = (stream: NodeJS.WriteStream) => {
      let pending = '';
      return (chunk: Buffer) => {
        const lines = (pending + chunk.toString('utf8')).split('\n');
        pending = lines.pop() ?? '';
        for (const line of lines) stream.write(`${prefix}${line}\n`);
      };
    };
    child.stdout.on('data', forward(process.stdout));
    child.stderr.on('data', forward(process.stderr));
    child.on('close', (code, signal) => {
      let projects: ProjectTime[] = [];
      try {
        projects = JSON.parse(readFileSync(timesFile, 'utf8')) as ProjectTime[];
      } catch {
        // The lane ended before its reporter wrote (a failed set-up): its exit code says so.
      }
      resolve({ lane, code: code ?? (signal ? 1 : 0), seconds: (Date.now() - started) / 1000, projects });
    });
  });
}

const started = Date.now();
ensureChromium();
const lanes = LANES.map(runLane);
const tail = Promise.race(lanes).then(() => {
  console.log(`[run] ${TAIL_LANE.name} lane starting at ${((Date.now() - started) / 1000).toFixed(0)} s`);
  return runLane(TAIL_LANE);
});
const results = await Promise.all([...lanes, tail]);
rmSync(scratch, { recursive: true, force: true });

console.log('\nTime per lane and project:');
for (const result of results) {
  console.log(
    `${result.lane.name}: ${result.seconds.toFixed(0)} s, ${result.code === 0 ? 'passed' : `FAILED (exit ${result.code})`}`,
  );
  if (result.projects.length > 0) console.log(formatProjectTimes(result.projects));
}
// The lanes' output interleaves; the failures are repeated here, last, where a log's tail shows them.
const failures = formatFailures(results.flatMap((result) => result.projects));
if (failures) console.log(`\nFailed:\n${failures}`);
console.log(`All tests: ${((Date.now() - started) / 1000).toFixed(0)} s`);
const ranNothing = results.every((result) => result.projects.every((project) => project.files === 0));
if (ranNothing) console.log(`No test file matches ${extraArgs.join(' ')}`);
process.exitCode = ranNothing || results.some((result) => result.code !== 0) ? 1 : 0;

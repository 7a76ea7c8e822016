import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { build } from 'esbuild';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { BUNDLE_OPTIONS } from '#lib/bundling/handler-bundle.ts';
import { createLogger } from '#lambdas/shared/logger.ts';

const projectRoot = fileURLToPath(new URL('../..', import.meta.url));

describe('the function logger', () => {
  let written: string[];
  beforeEach(() => {
    written = [];
    for (const stream of [process.stdout, process.stderr]) {
      vi.spyOn(stream, 'write').mockImplementation((chunk: string | Uint8Array) => {
        written.push(String(chunk));
        return true;
      });
    }
  });
  afterEach(() => vi.restoreAllMocks());
  const entries = () =>
    written
      .join('')
      .split('\n')
      .filter((line) => line.startsWith('{'))
      .map((line) => JSON.parse(line) as Record<string, unknown>);

  it('writes what was logged before it was loaded once it is, in order, with the Powertools fields', async () => {
    const logger = createLogger('logger-test');
    logger.info('first', { requestId: 'r-1', status: 200 });
    logger.addContext({
      awsRequestId: 'aws-1',
      functionName: 'fn',
      invokedFunctionArn: 'arn:aws:lambda:us-east-2:123456789012:function:fn',
      memoryLimitInMB: '256',
    } as never);
    logger.warn('second');
    // Loading is asynchronous: nothing is written yet, nothing is lost.
    expect(entries()).toEqual([]);

    await logger.ready();
    expect(entries()).toEqual([
      expect.objectContaining({
        level: 'INFO',
        message: 'first',
        service: 'logger-test',
        requestId: 'r-1',
        status: 200,
        timestamp: expect.any(String),
      }),
      expect.objectContaining({
        level: 'WARN',
        message: 'second',
        service: 'logger-test',
        function_request_id: 'aws-1',
        function_name: 'fn',
      }),
    ]);
    // Once loaded, a line is written as it is logged.
    logger.error('third', { error: new RangeError('out of range') });
    expect(entries().at(-1)).toMatchObject({
      level: 'ERROR',
      message: 'third',
      error: { name: 'RangeError', message: 'out of range', stack: expect.any(String) },
    });
  });
});

/**
 * The deployed functions run without NODE_OPTIONS=--enable-source-maps; the logger reads the
 * bundle's linked source maps when it formats a logged error. Checked on a bundle built with the
 * functions' esbuild options, run by a fresh Node process without any source map flag.
 */
describe('logged errors of a bundled function', () => {
  let directory: string;
  /** 1-based line of the `throw` in the fixture. */
  const THROW_LINE = 3;
  const FIXTURE = [
    "export { createLogger } from '@shared/logger.ts';",
    'function parseTheAnswer(text: string): number {',
    "  throw Object.assign(new TypeError(`not a number: ${text}`, { cause: new Error('the root') }), { code: 'E_FIXTURE' });",
    '}',
    'export function handleRequest(text: string): number {',
    '  return parseTheAnswer(text) + 1;',
    '}',
    '',
  ].join('\n');
  const RUNNER = `
const bundle = await import(process.argv[1]);
let error;
try { bundle.handleRequest('forty-two'); } catch (caught) { error = caught; }
const before = error.stack;
const logger = bundle.createLogger('fixture');
await logger.ready();
logger.error('Request failed', { requestId: 'r-9', error });
process.stdout.write(JSON.stringify({ raw: error.stack, unchanged: error.stack === before }) + '\\n');
`;
  interface LoggedError {
    readonly name: string;
    readonly message: string;
    readonly location: string;
    readonly stack: string;
    readonly cause?: LoggedError;
  }
  type LogLine = Record<string, unknown> & {
    readonly error?: LoggedError;
    readonly raw?: string;
    readonly unchanged?: boolean;
  };
  let result: { raw: string; unchanged: boolean | undefined; logged: LogLine };

  beforeAll(async () => {
    directory = await mkdtemp(join(tmpdir(), 'logger-bundle-'));
    await writeFile(join(directory, 'fixture.ts'), FIXTURE);
    await build({
      ...BUNDLE_OPTIONS,
      mainFields: [...BUNDLE_OPTIONS.mainFields],
      entryPoints: [{ in: join(directory, 'fixture.ts'), out: 'index' }],
      outdir: join(directory, 'out'),
      absWorkingDir: projectRoot,
      nodePaths: [join(projectRoot, 'node_modules')],
      alias: { '@shared': join(projectRoot, 'lambdas/shared') },
    });
    const output = await new Promise<string>((resolve, reject) =>
      execFile(
        process.execPath,
        ['--input-type=module', '-e', RUNNER, pathToFileURL(join(directory, 'out', 'index.mjs')).href],
        { env: { PATH: process.env.PATH, POWERTOOLS_LOG_LEVEL: 'INFO' } },
        // Powertools writes ERROR lines to stderr.
        (error, out, err) => (error ? reject(new Error(`${error.message}\n${err}`)) : resolve(`${out}\n${err}`)),
      ),
    );
    const lines = output
      .split('\n')
      .filter((line) => line.startsWith('{'))
      .map((line) => JSON.parse(line) as LogLine);
    const logged = lines.find((line) => line.message === 'Request failed');
    const summary = lines.find((line) => 'raw' in line);
    result = { raw: summary?.raw ?? '', unchanged: summary?.unchanged, logged: logged ?? {} };
  }, 60_000);
  afterAll(() => rm(directory, { recursive: true, force: true }));

  it('names the source file, line and function of each bundled frame, reading the map only then', () => {
    // The error itself keeps the minified positions (no source map flag) ...
    expect(result.raw.split('\n')[1]).toMatch(/index\.mjs:\d+:\d+\)?$/);
    expect(result.raw).not.toContain('fixture.ts');
    // ... the log shows the source.
    const error = result.logged.error!;
    expect(error.location).toBe(`fixture.ts:${THROW_LINE}`);
    const frames = String(error.stack).split('\n');
    expect(frames[0]).toBe('TypeError: not a number: forty-two');
    expect(frames[1]).toMatch(new RegExp(`^ {4}at parseTheAnswer \\(fixture\\.ts:${THROW_LINE}:\\d+\\)$`));
    // The outermost bundled frame has no caller in its module to name it: its minified name stays.
    expect(frames[2]).toMatch(/^ {4}at \S+ \(fixture\.ts:6:\d+\)$/);
    expect(error.cause).toMatchObject({ name: 'Error', message: 'the root', location: `fixture.ts:${THROW_LINE}` });
  });

  it('keeps the rest of the Powertools error format and the line fields, and leaves the error as it was', () => {
    expect(result.logged).toMatchObject({
      level: 'ERROR',
      message: 'Request failed',
      service: 'fixture',
      requestId: 'r-9',
      sampling_rate: 0,
    });
    expect(result.logged.error).toMatchObject({
      name: 'TypeError',
      message: 'not a number: forty-two',
      code: 'E_FIXTURE',
    });
    expect(result.unchanged).toBe(true);
  });

  it('loads Powertools with the first line, not when the function starts', async () => {
    const STATIC_IMPORT = /(?:\bfrom\s*|\bimport\s*)"\.\/([^"]+\.mjs)"/g;
    const loadedAtStart = new Set<string>();
    const pending = ['index.mjs'];
    while (pending.length > 0) {
      const file = pending.pop()!;
      if (loadedAtStart.has(file)) continue;
      loadedAtStart.add(file);
      for (const match of (await readFile(join(directory, 'out', file), 'utf8')).matchAll(STATIC_IMPORT))
        pending.push(match[1]!);
    }
    const sources = async (file: string) =>
      (JSON.parse(await readFile(join(directory, 'out', `${file}.map`), 'utf8')) as { sources: string[] }).sources;
    const atStart = (await Promise.all([...loadedAtStart].map(sources))).flat();
    expect(atStart.some((source) => source.endsWith('lambdas/shared/logger.ts'))).toBe(true);
    expect(atStart.filter((source) => source.includes('@aws-lambda-powertools'))).toEqual([]);
  });
});

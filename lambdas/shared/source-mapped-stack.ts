import { readFileSync } from 'node:fs';
import { SourceMap, type SourceMapPayload } from 'node:module';
import { dirname } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * Stack traces of logged errors in the source's terms, paid for only when an error is logged.
 *
 * The deployed bundle is minified, with a linked `.map` beside each of its modules. Node's
 * `--enable-source-maps` would read and parse the map of every module as it loads (at start and
 * on the first request, whether or not anything fails); here the maps are read only when a
 * logged error's stack names a module of the bundle, each map once. Frames outside the bundle
 * (Node's own, or code that is not bundled: tests, local mode's already mapped stacks) are kept
 * as they are.
 */

/** The directory of the bundle this module is part of: only its modules' maps are read. */
const BUNDLE_DIRECTORY = dirname(fileURLToPath(import.meta.url));

/** `    at name (file:///dir/chunk.mjs:1:234)` or `    at file:///dir/chunk.mjs:1:234`. */
const FRAME = /^(\s*at )(?:(.*) \()?((?:file:\/\/)?\/[^()\s]*\.mjs):(\d+):(\d+)(\)?)$/;

interface Frame {
  readonly indent: string;
  readonly name: string | undefined;
  readonly file: string;
  readonly line: number;
  readonly column: number;
}

interface Origin {
  readonly source: string;
  readonly line: number;
  readonly column: number;
  /** The identifier at this position before minification, when it was renamed. */
  readonly name: string | undefined;
}

const maps = new Map<string, SourceMap | null>();

const sourceMapOf = (file: string): SourceMap | null => {
  let map = maps.get(file);
  if (map === undefined) {
    try {
      map =
        dirname(file) === BUNDLE_DIRECTORY
          ? new SourceMap(JSON.parse(readFileSync(`${file}.map`, 'utf8')) as SourceMapPayload)
          : null;
    } catch {
      map = null;
    }
    maps.set(file, map);
  }
  return map;
};

const parseFrame = (text: string): Frame | undefined => {
  const match = FRAME.exec(text);
  if (match === null) return undefined;
  const [, indent, name, location, line, column, closing] = match;
  // A name opens a parenthesis that must close; without a name there is none.
  if ((name !== undefined) !== (closing === ')')) return undefined;
  let file = location!;
  try {
    if (file.startsWith('file://')) file = fileURLToPath(file);
  } catch {
    return undefined;
  }
  return { indent: indent!, name, file, line: Number(line), column: Number(column) };
};

/** `../../lambdas/embed/handler.ts` as `lambdas/embed/handler.ts`: the path within the project or package. */
const readablePath = (source: string): string => source.replace(/^(?:\.{1,2}\/)+/, '');

const originOf = (frame: Frame): Origin | undefined => {
  const map = sourceMapOf(frame.file);
  if (map === null) return undefined;
  // Stack positions count from 1, the map's from 0.
  const entry = map.findEntry(frame.line - 1, frame.column - 1) as Partial<{
    originalSource: string;
    originalLine: number;
    originalColumn: number;
    name: string;
  }>;
  if (
    typeof entry.originalSource !== 'string' ||
    typeof entry.originalLine !== 'number' ||
    typeof entry.originalColumn !== 'number'
  )
    return undefined;
  return {
    source: readablePath(entry.originalSource),
    line: entry.originalLine + 1,
    column: entry.originalColumn + 1,
    name: entry.name,
  };
};

/**
 * The stack with each frame in a bundle module given as its source file, line and column. A
 * frame's function is named as its caller's call site in the same module names it (the
 * minified name otherwise), as Node names mapped frames when it cannot see the function's own.
 */
const sourceMappedStack = (stack: string): string => {
  const lines = stack.split('\n');
  const frames = lines.map(parseFrame);
  const origins = frames.map((frame) => (frame === undefined ? undefined : originOf(frame)));
  return lines
    .map((text, index) => {
      const frame = frames[index];
      const origin = origins[index];
      if (frame === undefined || origin === undefined) return text;
      const location = `${origin.source}:${origin.line}:${origin.column}`;
      if (frame.name === undefined) return `${frame.indent}${location}`;
      const callerName = frames[index + 1]?.file === frame.file ? origins[index + 1]?.name : undefined;
      const name = callerName === undefined ? frame.name : frame.name.replace(/[^\s.]+$/, callerName);
      return `${frame.indent}${name} (${location})`;
    })
    .join('\n');
};

/**
 * The error as the log shows it: the same error, its stack (and its causes' stacks) in the
 * source's terms. A view of the error, not a copy or a change of it: every other property is
 * the error's own, and the error thrown stays as it was.
 */
export const withSourceMappedStack = <E extends Error>(error: E): E => {
  const stack = typeof error.stack === 'string' ? sourceMappedStack(error.stack) : error.stack;
  if (stack === error.stack && !(error.cause instanceof Error)) return error;
  return new Proxy(error, {
    get: (target, property) => {
      if (property === 'stack') return stack;
      const value: unknown = Reflect.get(target, property, target);
      return property === 'cause' && value instanceof Error ? withSourceMappedStack(value) : value;
    },
  });
};

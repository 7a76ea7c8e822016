import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { copyFile, mkdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { basename, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Plugin } from 'esbuild';
import { hashSources } from './source-hash.ts';

const projectRoot = fileURLToPath(new URL('../..', import.meta.url));

/**
 * esbuild's options for a handler bundle: minified ESM for the runtime's Node.js with linked
 * source maps (read by the logger when it logs an error), the AWS SDK bundled (not taken from the runtime) so the
 * deployed code runs the versions the tests ran, and code splitting: what a handler loads with `import()` (the token
 * verifier, the SDK clients, the request's work) is a chunk of its own that the first request
 * to need it loads, so the function starts with its middleware only.
 */
export const BUNDLE_OPTIONS = {
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node24',
  minify: true,
  sourcemap: 'linked',
  sourcesContent: false,
  mainFields: ['module', 'main'],
  splitting: true,
  outExtension: { '.js': '.mjs' },
  chunkNames: '[name]-[hash]',
  // Some dependencies are CommonJS and call require() for Node built-ins.
  banner: {
    js: "import { createRequire as __createRequire } from 'node:module'; const require = __createRequire(import.meta.url);",
  },
  logLevel: 'warning',
} as const;

/**
 * Writes the AWS SDK's schema trait keys (`{ [_h]: ... }`, computed from string constants) as
 * the literal keys they are: esbuild keeps every statement with a computed key, so without it
 * each client's whole service schema (QuickSight's: 260 KB) stays in the bundle whichever
 * commands are used (aws/aws-sdk-js-v3#7607). Nothing else in the file changes.
 */
const literalSchemaKeys: Plugin = {
  name: 'literal-schema-keys',
  setup(build) {
    build.onLoad(
      { filter: /[\\/]@aws-sdk[\\/].+[\\/]dist-es[\\/](?:.+[\\/])?schemas[\\/]schemas_\d+\.js$/ },
      async ({ path }) => {
        const source = await readFile(path, 'utf8');
        const strings = new Map<string, string>();
        for (const [, name, value] of source.matchAll(/^const (_\w+) = ("(?:[^"\\]|\\.)*");$/gm))
          strings.set(name!, value!);
        return {
          contents: source.replace(/\[(_\w+)\]:/g, (key, name: string) =>
            strings.has(name) ? `${strings.get(name)}:` : key,
          ),
          loader: 'js',
        };
      },
    );
  },
};

/** The handler of the function folder `name`: `lambdas/<name>/handler.ts`. */
const handlerEntry = (name: string): string => join(projectRoot, 'lambdas', name, 'handler.ts');

/** Every function folder with a handler. */
const handlerNames = (): string[] =>
  readdirSync(join(projectRoot, 'lambdas'), { withFileTypes: true })
    .filter((entry) => entry.isDirectory() && existsSync(handlerEntry(entry.name)))
    .map((entry) => entry.name)
    .sort();

/** Bundles `entry` into `outdir` (index.mjs and its chunks, with source maps). */
export async function bundleHandler(entry: string, outdir: string): Promise<void> {
  const { build } = await import('esbuild');
  await build({
    ...BUNDLE_OPTIONS,
    mainFields: [...BUNDLE_OPTIONS.mainFields],
    absWorkingDir: projectRoot,
    entryPoints: [{ in: entry, out: 'index' }],
    outdir,
    plugins: [literalSchemaKeys],
  });
}

/**
 * Bundles the handlers `names` in one esbuild build (each module, the SDK's among them, is read
 * and parsed once for all of them instead of once per handler: a quarter of the processor time),
 * then gives each its own folder in `outdir`: `index.mjs`, the chunks it loads (statically or
 * with `import()`) and their source maps, as {@link bundleHandler} writes it alone. Code that
 * several handlers share may lie in a chunk of its own; each handler loads the same code.
 */
async function bundleHandlersTogether(names: readonly string[], outdir: string): Promise<void> {
  const { build } = await import('esbuild');
  const shared = join(outdir, '.shared');
  const { metafile } = await build({
    ...BUNDLE_OPTIONS,
    mainFields: [...BUNDLE_OPTIONS.mainFields],
    absWorkingDir: projectRoot,
    entryPoints: names.map((name) => ({ in: handlerEntry(name), out: name })),
    outdir: shared,
    metafile: true,
    plugins: [literalSchemaKeys],
  });
  const outputs = metafile.outputs;
  const fileOf = (output: string) => basename(output);
  for (const name of names) {
    const entry = Object.keys(outputs).find((output) => fileOf(output) === `${name}.mjs`);
    if (entry === undefined) throw new Error(`esbuild wrote no bundle for the handler ${name}`);
    // The entry and every chunk it reaches, by static or dynamic import.
    const reached = new Set<string>([entry]);
    for (const output of reached) {
      for (const { path } of outputs[output]?.imports ?? []) if (path in outputs) reached.add(path);
    }
    const folder = join(outdir, name);
    await mkdir(folder, { recursive: true });
    for (const output of reached) {
      if (output === entry) continue;
      await copyFile(join(projectRoot, output), join(folder, fileOf(output)));
      if (existsSync(join(projectRoot, `${output}.map`)))
        await copyFile(join(projectRoot, `${output}.map`), join(folder, `${fileOf(output)}.map`));
    }
    // The entry is index.mjs, as Lambda's handler setting names it; its source map follows.
    const code = await readFile(join(projectRoot, entry), 'utf8');
    await writeFile(
      join(folder, 'index.mjs'),
      code.replace(`//# sourceMappingURL=${name}.mjs.map`, '//# sourceMappingURL=index.mjs.map'),
    );
    const map = JSON.parse(await readFile(join(projectRoot, `${entry}.map`), 'utf8')) as { file?: string };
    await writeFile(join(folder, 'index.mjs.map'), JSON.stringify({ ...map, file: 'index.mjs' }));
  }
  await rm(shared, { recursive: true, force: true });
}

/**
 * Prebuilt bundles by function folder name, which a synthesis in this process copies instead
 * of bundling each function one after the other (see {@link bundleHandlersInto}).
 */
const prebuilt = new Map<string, string>();

/** The prebuilt bundle of `name`, if this process made one. */
export const prebuiltBundle = (name: string): string | undefined => prebuilt.get(name);

/** What a handler bundle is made of: the handlers, the shared code and schemas, the locked dependencies, this file. */
const BUNDLE_SOURCES = ['lambdas', 'contracts', 'package-lock.json', 'tsconfig.json', 'lib/bundling'];

/** A hash of every input of the handler bundles, with esbuild's version. */
function bundleSourceHash(): string {
  const esbuild = JSON.parse(readFileSync(join(projectRoot, 'node_modules', 'esbuild', 'package.json'), 'utf8')) as {
    version: string;
  };
  return hashSources(BUNDLE_SOURCES, `esbuild ${esbuild.version}`);
}

/**
 * Bundles every handler into `<directory>/<name>/`, all in one build, unless the directory
 * holds them already; later syntheses in this process copy
 * them (PortalFunction's bundling). A directory is written whole under another name and then
 * renamed, so a bundle directory that exists is complete.
 */
async function bundleHandlersInto(directory: string): Promise<void> {
  const names = handlerNames();
  if (!names.every((name) => existsSync(join(directory, name, 'index.mjs')))) {
    const partial = `${directory}.partial-${process.pid}-${Date.now()}`;
    try {
      await bundleHandlersTogether(names, partial);
      await mkdir(join(directory, '..'), { recursive: true });
      await rename(partial, directory).catch(async (error: NodeJS.ErrnoException) => {
        // Another process bundled the same sources meanwhile: theirs serve as well.
        if (error.code !== 'ENOTEMPTY' && error.code !== 'EEXIST') throw error;
      });
    } finally {
      await rm(partial, { recursive: true, force: true });
    }
  }
  for (const name of names) prebuilt.set(name, join(directory, name));
}

/**
 * Where handler bundles are kept between syntheses, by the hash of their sources (a change of
 * lib/ alone re-bundles nothing); PORTAL_BUNDLE_CACHE_DIR puts them elsewhere (a bench's cold start).
 */
export const handlerBundleCacheDir = (): string =>
  process.env.PORTAL_BUNDLE_CACHE_DIR || join(projectRoot, 'node_modules', '.cache', 'portal-handler-bundles');

/**
 * Makes (or finds) the bundles of the current handler sources in the cache, all at once, for the
 * syntheses this process runs next. Resolves with the cache entry's name.
 */
export async function prebundleHandlers(): Promise<string> {
  const hash = bundleSourceHash();
  await bundleHandlersInto(join(handlerBundleCacheDir(), hash));
  return hash;
}

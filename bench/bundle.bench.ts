/**
 * Script budget of the SPA. Reads the web build of the current sources (web/dist, built by
 * Vite when it is missing or older than its sources, as local mode builds it) and its
 * manifest to follow which chunks each route loads: an entry plus everything it imports
 * statically. Sizes are gzip at zlib's default level, as Vite reports them (1 KB = 1000 B).
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { ensureWebBuilt, WEB_DIST } from '#local/web-build.ts';
import type { BenchRow } from './types.ts';

interface ManifestChunk {
  readonly file: string;
  readonly isEntry?: boolean;
  readonly isDynamicEntry?: boolean;
  readonly imports?: readonly string[];
  readonly dynamicImports?: readonly string[];
}
type Manifest = Record<string, ManifestChunk>;

const SIGN_IN_BUDGET_KB = 108;

/** Manifest keys are paths relative to the web root. */
export const ROUTE_MODULES = {
  signIn: 'src/features/auth/routes/login-page.tsx',
  dashboard: 'src/features/dashboard/routes/home-page.tsx',
  admin: 'src/features/admin/admin-app.tsx',
  insights: 'src/features/admin/routes/insights-page.tsx',
  insightsCharts: 'src/features/admin/components/insights-charts.tsx',
  identityLibrary: 'src/lib/auth/cognito-service.ts',
} as const;

/** The files a chunk loads that are not among `loaded` already. */
const staticClosureBeyond = (manifest: Manifest, key: string, loaded: Iterable<string>): string[] => {
  const have = new Set(loaded);
  return [...staticClosure(manifest, key)].filter((file) => !have.has(file));
};

/** The files a chunk loads before it runs: itself and its static imports, transitively. */
export function staticClosure(manifest: Manifest, key: string): Set<string> {
  const files = new Set<string>();
  const visit = (current: string) => {
    const chunk = manifest[current];
    if (!chunk) throw new Error(`${current} is not in the Vite manifest`);
    if (files.has(chunk.file)) return;
    files.add(chunk.file);
    for (const imported of chunk.imports ?? []) visit(imported);
  };
  visit(key);
  return files;
}

const entryKey = (manifest: Manifest) => {
  const key = Object.keys(manifest).find((k) => manifest[k]?.isEntry);
  if (!key) throw new Error('The Vite manifest has no entry chunk');
  return key;
};

const kb = (bytes: number) => `${(bytes / 1000).toFixed(1)} KB`;

export async function run(): Promise<BenchRow[]> {
  // The build the portal serves: the manifest is part of it (web/vite.config.ts).
  await ensureWebBuilt({ keepPreviousOnFailure: false });
  const outDir = WEB_DIST;
  const manifest = JSON.parse(await readFile(join(outDir, '.vite/manifest.json'), 'utf8')) as Manifest;
  const sizes = new Map<string, number>();
  const gzipSize = async (file: string) => {
    const cached = sizes.get(file);
    if (cached !== undefined) return cached;
    const size = gzipSync(await readFile(join(outDir, file))).length;
    sizes.set(file, size);
    return size;
  };
  const total = async (files: Iterable<string>) => {
    let sum = 0;
    for (const file of files) sum += await gzipSize(file);
    return sum;
  };

  const initial = staticClosure(manifest, entryKey(manifest));
  const signIn = new Set([...initial, ...staticClosure(manifest, ROUTE_MODULES.signIn)]);
  /** What a route adds on top of the sign-in page's scripts. */
  const added = (key: string) => [...staticClosure(manifest, key)].filter((file) => !signIn.has(file));

  const signInBytes = await total(signIn);
  const identityBytes = await total(added(ROUTE_MODULES.identityLibrary));
  // The budget counts everything a sign-in needs to finish: the page's initial scripts and
  // the identity library it loads on first focus (its SRP code included).
  const wholeBytes = signInBytes + identityBytes;
  return [
    {
      area: 'web',
      metric: 'sign-in JS to finish a sign-in, counted whole: initial + identity library (gzip)',
      value: kb(wholeBytes),
      target: `<= ${SIGN_IN_BUDGET_KB} KB`,
      ok: wholeBytes <= SIGN_IN_BUDGET_KB * 1000,
      kind: 'size',
    },
    { area: 'web', metric: 'of which sign-in route initial JS (gzip)', value: kb(signInBytes) },
    {
      area: 'web',
      metric: 'of which identity library, fetched on first focus or stored session (gzip)',
      value: kb(identityBytes),
    },
    {
      area: 'web',
      metric: 'dashboard page chunk, lazy (gzip)',
      value: kb(await total(added(ROUTE_MODULES.dashboard))),
    },
    { area: 'web', metric: 'admin portal chunk, lazy (gzip)', value: kb(await total(added(ROUTE_MODULES.admin))) },
    {
      area: 'web',
      metric: 'admin Insights page, lazy, beyond the admin chunk (gzip)',
      value: kb(
        await total(
          staticClosureBeyond(manifest, ROUTE_MODULES.insights, [
            ...signIn,
            ...staticClosure(manifest, ROUTE_MODULES.admin),
          ]),
        ),
      ),
    },
    {
      area: 'web',
      metric: 'Insights charts (recharts), lazy, beyond the page (gzip)',
      value: kb(
        await total(
          staticClosureBeyond(manifest, ROUTE_MODULES.insightsCharts, [
            ...signIn,
            ...staticClosure(manifest, ROUTE_MODULES.admin),
            ...staticClosure(manifest, ROUTE_MODULES.insights),
          ]),
        ),
      ),
    },
  ];
}

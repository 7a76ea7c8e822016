import * as CDX from '@cyclonedx/cyclonedx-library';
import { buildSync, type Metafile } from 'esbuild';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/**
 * The software bill of materials (CycloneDX JSON) of what the stacks deploy: the packages
 * esbuild bundles into each function (its metafile of the handler built as it deploys) and
 * into the SPA (the modules of its entry, as Vite bundles them, with the assets Vite's
 * manifest names). Each package once, with its version from its own package.json.
 */

export interface SbomInput {
  /** Project folder holding `lambdas/`, `web/` and `node_modules/`. */
  readonly root: string;
  /** Handler folder names (`lambdas/<name>/handler.ts`) of the deployed functions. */
  readonly handlers: readonly string[];
  /** SPA entry module, relative to root. @default web/src/main.tsx when it exists */
  readonly webEntry?: string;
  readonly product: string;
  readonly version?: string;
}

export interface SbomPackage {
  readonly name: string;
  readonly version: string;
  /** `function <name>` or `web app` for each bundle the package is in. */
  readonly bundles: readonly string[];
}

/** The package a bundled input path belongs to (the last `node_modules/` in it). */
function packageDirectory(path: string): { name: string; directory: string } | undefined {
  const at = path.lastIndexOf('node_modules/');
  if (at < 0) return undefined;
  const rest = path.slice(at + 'node_modules/'.length).split('/');
  const name = rest[0]!.startsWith('@') ? `${rest[0]}/${rest[1]}` : rest[0]!;
  return { name, directory: `${path.slice(0, at)}node_modules/${name}` };
}

function packagesOf(
  metafile: Metafile,
  root: string,
  bundle: string,
  found: Map<string, { name: string; version: string; bundles: Set<string> }>,
): void {
  for (const input of Object.keys(metafile.inputs)) {
    const pkg = packageDirectory(input);
    if (!pkg) continue;
    const manifest = join(root, pkg.directory, 'package.json');
    const version = existsSync(manifest)
      ? String((JSON.parse(readFileSync(manifest, 'utf8')) as { version?: string }).version ?? 'unknown')
      : 'unknown';
    const key = `${pkg.name}@${version}`;
    const entry = found.get(key) ?? { name: pkg.name, version, bundles: new Set<string>() };
    entry.bundles.add(bundle);
    found.set(key, entry);
  }
}

/** The packages bundled into the functions and the SPA. */
export function bundledPackages(input: SbomInput): SbomPackage[] {
  const found = new Map<string, { name: string; version: string; bundles: Set<string> }>();
  const outdir = mkdtempSync(join(tmpdir(), 'sbom-'));
  try {
    const entries = input.handlers.filter((name) => existsSync(join(input.root, 'lambdas', name, 'handler.ts')));
    for (const name of entries) {
      // As lib/portal-function.ts bundles it: every package inlined, ESM for Node.js.
      const { metafile } = buildSync({
        entryPoints: [join(input.root, 'lambdas', name, 'handler.ts')],
        absWorkingDir: input.root,
        bundle: true,
        platform: 'node',
        format: 'esm',
        target: 'node24',
        mainFields: ['module', 'main'],
        splitting: true,
        outdir,
        write: false,
        metafile: true,
        logLevel: 'silent',
      });
      packagesOf(metafile, input.root, `function ${name}`, found);
    }
    const webEntry = input.webEntry ?? 'web/src/main.tsx';
    if (existsSync(join(input.root, webEntry))) {
      const empty = Object.fromEntries(
        ['.css', '.svg', '.png', '.jpg', '.woff', '.woff2'].map((ext) => [ext, 'empty' as const]),
      );
      const { metafile } = buildSync({
        entryPoints: [join(input.root, webEntry)],
        absWorkingDir: input.root,
        bundle: true,
        platform: 'browser',
        format: 'esm',
        splitting: true,
        jsx: 'automatic',
        loader: empty,
        outdir,
        write: false,
        metafile: true,
        logLevel: 'silent',
      });
      packagesOf(metafile, input.root, 'web app', found);
      // Assets (fonts) Vite copies from packages, as its manifest names them.
      const manifest = join(input.root, 'web', 'dist', '.vite', 'manifest.json');
      if (existsSync(manifest)) {
        const inputs = Object.fromEntries(
          Object.keys(JSON.parse(readFileSync(manifest, 'utf8')) as object).map((path) => [
            path.replace(/^(\.\.\/)+/, ''),
            { bytes: 0, imports: [] },
          ]),
        );
        packagesOf({ inputs, outputs: {} } as Metafile, input.root, 'web app', found);
      }
    }
  } finally {
    rmSync(outdir, { recursive: true, force: true });
  }
  return [...found.values()]
    .map((entry) => ({ name: entry.name, version: entry.version, bundles: [...entry.bundles].sort() }))
    .sort((a, b) => a.name.localeCompare(b.name) || a.version.localeCompare(b.version));
}

/** The packages as a CycloneDX 1.6 JSON document. */
export function cycloneDx(input: SbomInput, packages: readonly SbomPackage[]): string {
  const bom = new CDX.Models.Bom();
  bom.metadata.component = new CDX.Models.Component(
    CDX.Enums.ComponentType.Application,
    input.product,
    input.version ? { version: input.version } : {},
  );
  for (const pkg of packages) {
    const [group, name] = pkg.name.startsWith('@') ? (pkg.name.split('/') as [string, string]) : [undefined, pkg.name];
    const component = new CDX.Models.Component(CDX.Enums.ComponentType.Library, name, {
      ...(group && { group }),
      version: pkg.version,
      bomRef: `${pkg.name}@${pkg.version}`,
      // Package URL (purl) of an npm package: the scope's @ is percent-encoded.
      purl: `pkg:npm/${group ? `${encodeURIComponent(group)}/` : ''}${name}@${encodeURIComponent(pkg.version)}`,
    });
    for (const bundle of pkg.bundles) component.properties.add(new CDX.Models.Property('bundled-into', bundle));
    bom.components.add(component);
  }
  const serializer = new CDX.Serialize.JsonSerializer(new CDX.Serialize.JSON.Normalize.Factory(CDX.Spec.Spec1dot6));
  return `${serializer.serialize(bom, { sortLists: true, space: 2 })}\n`;
}

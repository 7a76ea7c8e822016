import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const projectRoot = fileURLToPath(new URL('../..', import.meta.url));

function filesUnder(path: string): string[] {
  if (!existsSync(path)) return [];
  if (!statSync(path).isDirectory()) return [path];
  return readdirSync(path, { withFileTypes: true })
    .filter((entry) => entry.name !== 'node_modules')
    .flatMap((entry) => filesUnder(join(path, entry.name)));
}

/**
 * A hash of the paths and contents of every file under `sources` (paths from the project's
 * root), after `salt`: what a cache of things made from them (the handler bundles, local
 * mode's synthesis) is keyed by.
 */
export function hashSources(sources: readonly string[], salt = ''): string {
  const hash = createHash('sha256').update(`${salt}\0`);
  const files = sources.flatMap((source) => filesUnder(join(projectRoot, source))).sort();
  for (const file of files)
    hash.update(relative(projectRoot, file)).update('\0').update(readFileSync(file)).update('\0');
  return hash.digest('hex').slice(0, 24);
}

/**
 * `tsx local/aws/synth-cli.ts <outdir> <source hash>`: synthesizes the CDK app into
 * `<outdir>` and writes `<outdir>/deployment.json`. Run as a child process so that the
 * CDK library and the bundler's output stay out of the local stack's process.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { bundleHandlersInto, bundleSourceHash } from '#lib/bundling/handler-bundle.ts';
import { pruneCache } from './local-deployment.ts';
import { synthesizeDeployment } from './synth.ts';

const [outdir, sourceHash] = process.argv.slice(2);
if (!outdir || !sourceHash) {
  console.error('Usage: synth-cli.ts <outdir> <source hash>');
  process.exit(2);
}

// A start killed during synthesis (SIGKILL, a crash) cannot stop this process: it stops itself
// once its parent is gone, so the next start does not share the machine with it.
const parent = process.ppid;
setInterval(() => {
  if (process.ppid !== parent) process.exit(1);
}, 250).unref();

/** Handler bundles by the hash of their sources: a change of lib/ alone re-bundles nothing. */
const BUNDLE_CACHE_DIR = fileURLToPath(new URL('../../node_modules/.cache/portal-handler-bundles/', import.meta.url));

// Every handler at once (esbuild builds them in parallel), then the synthesis copies them.
const bundles = bundleSourceHash();
await bundleHandlersInto(join(BUNDLE_CACHE_DIR, bundles));
await pruneCache(BUNDLE_CACHE_DIR, bundles);
const deployment = synthesizeDeployment(outdir, sourceHash);
writeFileSync(join(outdir, 'deployment.json'), `${JSON.stringify(deployment, null, 2)}\n`);

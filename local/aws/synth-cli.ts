/**
 * `tsx local/aws/synth-cli.ts <outdir> <source hash>`: synthesizes the CDK app into
 * `<outdir>` and writes `<outdir>/deployment.json`. Run as a child process so that the
 * CDK library and the bundler's output stay out of the local stack's process.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { handlerBundleCacheDir, prebundleHandlers } from '#lib/bundling/handler-bundle.ts';
import { pruneCache } from './local-deployment.ts';

const [outdir, sourceHash] = process.argv.slice(2);
if (!outdir || !sourceHash) {
  console.error('Usage: synth-cli.ts <outdir> <source hash>');
  process.exit(2);
}

// A start killed during synthesis (SIGKILL, a crash) cannot stop this process: it stops itself
// once its parent is gone, so the next start does not share the machine with it.
const parent = process.ppid;
const exitIfOrphaned = () => {
  if (process.ppid !== parent) process.exit(1);
};
setInterval(exitIfOrphaned, 250).unref();

// Every handler at once (esbuild builds them in parallel), then the synthesis copies them.
const bundles = await prebundleHandlers();
await pruneCache(handlerBundleCacheDir(), bundles);
// The CDK library loads after the check is in place (its loading yields to it); the synthesis itself runs at once.
const { synthesizeDeployment } = await import('./synth.ts');
exitIfOrphaned();
const deployment = synthesizeDeployment(outdir, sourceHash);
writeFileSync(join(outdir, 'deployment.json'), `${JSON.stringify(deployment, null, 2)}\n`);

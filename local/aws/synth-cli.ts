/**
 * `tsx local/aws/synth-cli.ts <outdir> <source hash>`: synthesizes the CDK app into
 * `<outdir>` and writes `<outdir>/deployment.json`. Run as a child process so that the
 * CDK library and the bundler's output stay out of the local stack's process.
 */
import { once } from 'node:events';
import { Worker } from 'node:worker_threads';
import { handlerBundleCacheDir, prebundleHandlers } from '#lib/bundling/handler-bundle.ts';
import { pruneCache } from './local-deployment.ts';

const [outdir, sourceHash] = process.argv.slice(2);
if (!outdir || !sourceHash) {
  console.error('Usage: synth-cli.ts <outdir> <source hash>');
  process.exit(2);
}

// A start killed during synthesis (SIGKILL, a crash) cannot stop this process: it stops itself
// once its parent is gone, so the next start does not share the machine with it. The CDK
// library's loading and the synthesis run in a worker thread, so this check keeps running.
const parent = process.ppid;
setInterval(() => {
  if (process.ppid !== parent) process.exit(1);
}, 250).unref();

// Every handler at once (esbuild builds them in parallel), then the synthesis copies them.
const bundles = await prebundleHandlers();
await pruneCache(handlerBundleCacheDir(), bundles);
const worker = new Worker(new URL('./synth-worker.mjs', import.meta.url), {
  workerData: { module: './synth-worker.ts', outdir, sourceHash },
});
const [code] = (await once(worker, 'exit')) as [number];
process.exitCode = code;

/**
 * `node --import tsx lib/bundling/bundle-cli.ts <entry> <outdir>`: bundles one handler. CDK
 * bundles an asset synchronously, and esbuild's plugins need its asynchronous API, so a
 * synthesis without prebuilt bundles runs this in a child process for each function.
 */
import { bundleHandler } from './handler-bundle.ts';

const [entry, outdir] = process.argv.slice(2);
if (!entry || !outdir) {
  console.error('Usage: bundle-cli.ts <entry> <outdir>');
  process.exit(2);
}
await bundleHandler(entry, outdir);

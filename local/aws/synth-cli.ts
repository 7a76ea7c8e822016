/**
 * `tsx local/aws/synth-cli.ts <outdir> <source hash>`: synthesizes the CDK app into
 * `<outdir>` and writes `<outdir>/deployment.json`. Run as a child process so that the
 * CDK library and the bundler's output stay out of the local stack's process.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { synthesizeDeployment } from './synth.ts';

const [outdir, sourceHash] = process.argv.slice(2);
if (!outdir || !sourceHash) {
  console.error('Usage: synth-cli.ts <outdir> <source hash>');
  process.exit(2);
}
const deployment = synthesizeDeployment(outdir, sourceHash);
writeFileSync(join(outdir, 'deployment.json'), `${JSON.stringify(deployment, null, 2)}\n`);

/**
 * The synthesis itself, in a worker thread of `synth-cli.ts`: loading the CDK library and
 * synthesizing hold the thread for tens of seconds, and the process's main thread must stay
 * free to notice that the start which asked for the synthesis is gone.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { workerData } from 'node:worker_threads';
import { synthesizeDeployment } from './synth.ts';

const { outdir, sourceHash } = workerData as { outdir: string; sourceHash: string };
const deployment = synthesizeDeployment(outdir, sourceHash);
writeFileSync(join(outdir, 'deployment.json'), `${JSON.stringify(deployment, null, 2)}\n`);

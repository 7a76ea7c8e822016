// The entry of synth-cli.ts's worker thread: Node 20 starts a worker's entry before any
// loader it is given, so this plain module loads the TypeScript synthesis through tsx.
import { workerData } from 'node:worker_threads';
import { tsImport } from 'tsx/esm/api';

await tsImport(workerData.module, import.meta.url);

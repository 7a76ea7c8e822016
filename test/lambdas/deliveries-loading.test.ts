import { fileURLToPath } from 'node:url';
import { build, type Metafile } from 'esbuild';
import { expect, it } from 'vitest';
import { BUNDLE_OPTIONS } from '#lib/bundling/handler-bundle.ts';

const projectRoot = fileURLToPath(new URL('../..', import.meta.url));

/** The input files an output loads, with the outputs it imports statically, transitively. */
function staticInputs(metafile: Metafile, output: string): string[] {
  const reached = new Set([output]);
  for (const file of reached)
    for (const { path, kind } of metafile.outputs[file]?.imports ?? [])
      if (kind === 'import-statement' && path in metafile.outputs) reached.add(path);
  return [...reached].flatMap((file) => Object.keys(metafile.outputs[file]!.inputs));
}

it('loads only the due-index query on a run with nothing due, and the delivery code with the first due', async () => {
  const { metafile } = await build({
    ...BUNDLE_OPTIONS,
    mainFields: [...BUNDLE_OPTIONS.mainFields],
    absWorkingDir: projectRoot,
    entryPoints: [{ in: 'lambdas/deliveries/run.ts', out: 'run' }],
    outdir: 'out',
    write: false,
    metafile: true,
  });
  const entry = Object.keys(metafile.outputs).find((output) => output.endsWith('/run.mjs'))!;
  const atStart = staticInputs(metafile, entry);
  expect(atStart).toContain('lambdas/shared/data/subscription-items.ts');
  expect(atStart.some((input) => input.includes('@aws-sdk/client-dynamodb/'))).toBe(true);
  // Nothing that makes or mails a file: the schedule rules, the contract's schemas, the other clients.
  for (const heavy of [
    'lambdas/deliveries/deliver.ts',
    'node_modules/luxon/',
    'node_modules/zod/',
    '@aws-sdk/client-quicksight/',
    '@aws-sdk/client-sesv2/',
    '@aws-sdk/client-cognito-identity-provider/',
    '@aws-sdk/client-s3/',
  ])
    expect(
      atStart.filter((input) => input.includes(heavy)),
      heavy,
    ).toEqual([]);
  // They are in the bundle, loaded with the first subscription due.
  const all = Object.values(metafile.outputs).flatMap((output) => Object.keys(output.inputs));
  expect(all).toContain('lambdas/deliveries/deliver.ts');
  expect(all.some((input) => input.includes('node_modules/luxon/'))).toBe(true);
  expect(all.some((input) => input.includes('@aws-sdk/client-quicksight/'))).toBe(true);
});

import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { basename, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { synthesisChanges, type SynthesisIdentity } from './changes.ts';
import { complianceDirectory, readStackTemplate, writePack } from './pack-writer.ts';
import type { ComplianceReport } from './report.ts';
import type { StackTemplate } from './template.ts';

/**
 * `npm run compliance -- --since <previous cloud assembly directory | template.json> [--baseline-commit <sha>] [--out
 * cdk.out]`:
 * adds the security-relevant changes since a baseline (the last release's synthesis, every
 * stack of it) to the evidence pack the last synth wrote, and writes the three files again.
 * Each side is identified by its templates' SHA-256 and its git commit (the baseline's from
 * its own evidence pack when the directory holds one, else --baseline-commit).
 */

const USAGE =
  'Usage: npm run compliance -- --since <previous cloud assembly directory or template.json> [--baseline-commit <git commit>] [--out <cloud assembly directory, default cdk.out>]';
const projectRoot = fileURLToPath(new URL('..', import.meta.url));

const sha256 = (path: string) => createHash('sha256').update(readFileSync(path)).digest('hex');
const stackNameOf = (file: string) =>
  basename(file)
    .replace(/\.template\.json$/, '')
    .replace(/\.json$/, '');

/** The templates of a baseline: every `*.template.json` of a cloud assembly directory, or one template file. */
function baselineTemplates(path: string): { files: string[]; commit?: string } {
  if (!statSync(path).isDirectory()) return { files: [path] };
  const files = readdirSync(path)
    .filter((file) => file.endsWith('.template.json'))
    .map((file) => join(path, file));
  if (files.length === 0)
    throw new Error(
      `${path} holds no *.template.json: give the cloud assembly directory (cdk.out) of the baseline's synth.`,
    );
  const reportFile = join(complianceDirectory(path), 'report.json');
  const commit = existsSync(reportFile)
    ? (JSON.parse(readFileSync(reportFile, 'utf8')) as ComplianceReport).header.gitCommit
    : undefined;
  return { files, ...(commit && { commit }) };
}

export function addChangesSince(
  baselinePath: string,
  outdir: string,
  root = projectRoot,
  baselineCommit?: string,
): ComplianceReport {
  const reportFile = join(complianceDirectory(outdir), 'report.json');
  if (!existsSync(reportFile)) throw new Error(`${reportFile} does not exist: run \`npm run synth\` first.`);
  if (!existsSync(baselinePath)) throw new Error(`No baseline at ${baselinePath}.`);
  const report = JSON.parse(readFileSync(reportFile, 'utf8')) as ComplianceReport;
  if (report.header.templates.length === 0) throw new Error(`${reportFile} names no template.`);
  const pseudo = report.header.region.includes(' ') ? undefined : { 'AWS::Region': report.header.region };
  const currentFiles = report.header.templates.map((file) => join(outdir, file));
  const current: StackTemplate[] = currentFiles.map((file, index) =>
    readStackTemplate(file, pseudo, report.access[index]?.stack ?? stackNameOf(file)),
  );
  const baseline = baselineTemplates(baselinePath);
  const before = baseline.files.map((file) => {
    const name = stackNameOf(file);
    // A single template file keeps the name of the stack it replaces when there is only one.
    return readStackTemplate(
      file,
      pseudo,
      baseline.files.length === 1 && current.length === 1 ? current[0]!.stackName : name,
    );
  });
  const identity = (
    source: string,
    gitCommit: string,
    files: string[],
    stacks: StackTemplate[],
  ): SynthesisIdentity => ({
    source,
    gitCommit,
    templates: files.map((file, index) => ({ stack: stacks[index]!.stackName, sha256: sha256(file) })),
  });
  const changes = synthesisChanges(before, current, root, {
    baseline: identity(
      baselinePath,
      baselineCommit ?? baseline.commit ?? 'unknown (pass --baseline-commit)',
      baseline.files,
      before,
    ),
    current: identity(outdir, report.header.gitCommit, currentFiles, current),
  });
  const updated: ComplianceReport = { ...report, changes };
  writePack(outdir, updated);
  return updated;
}

function main(): void {
  const { values } = parseArgs({
    options: {
      since: { type: 'string' },
      'baseline-commit': { type: 'string' },
      out: { type: 'string', default: 'cdk.out' },
    },
  });
  if (!values.since) {
    console.error(USAGE);
    process.exit(2);
  }
  try {
    const report = addChangesSince(resolve(values.since), resolve(values.out), projectRoot, values['baseline-commit']);
    console.log(
      `${report.changes?.items.length ?? 0} security-relevant change(s) since ${values.since}; written to ${complianceDirectory(resolve(values.out))}`,
    );
  } catch (error) {
    console.error(error instanceof Error ? error.message : String(error));
    process.exit(1);
  }
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) main();

import { existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { securityChanges } from './changes.ts';
import { complianceDirectory, readStackTemplate, writePack } from './pack-writer.ts';
import type { ComplianceReport } from './report.ts';

/**
 * `npm run compliance -- --since <previous template.json> [--out cdk.out]`: adds the
 * security-relevant changes since a baseline template (the last release's) to the evidence
 * pack the last synth wrote, and writes the three files again.
 */

const USAGE = 'Usage: npm run compliance -- --since <previous template.json> [--out <cloud assembly directory, default cdk.out>]';
const projectRoot = fileURLToPath(new URL('../..', import.meta.url));

export function addChangesSince(baselinePath: string, outdir: string, root = projectRoot): ComplianceReport {
  const reportFile = join(complianceDirectory(outdir), 'report.json');
  if (!existsSync(reportFile)) throw new Error(`${reportFile} does not exist: run \`npm run synth\` first.`);
  if (!existsSync(baselinePath)) throw new Error(`No baseline template at ${baselinePath}.`);
  const report = JSON.parse(readFileSync(reportFile, 'utf8')) as ComplianceReport;
  const [templateFile] = report.header.templates;
  if (!templateFile) throw new Error(`${reportFile} names no template.`);
  const pseudo = report.header.region.includes(' ') ? undefined : { 'AWS::Region': report.header.region };
  const current = readStackTemplate(join(outdir, templateFile), pseudo, report.access[0]?.stack);
  const baseline = readStackTemplate(baselinePath, pseudo, current.stackName);
  const updated: ComplianceReport = { ...report, changes: securityChanges(baseline, current, root, baselinePath) };
  writePack(outdir, updated);
  return updated;
}

function main(): void {
  const { values } = parseArgs({ options: { since: { type: 'string' }, out: { type: 'string', default: 'cdk.out' } } });
  if (!values.since) {
    console.error(USAGE);
    process.exit(2);
  }
  try {
    const report = addChangesSince(resolve(values.since), resolve(values.out));
    console.log(`${report.changes?.items.length ?? 0} security-relevant change(s) since ${values.since}; written to ${complianceDirectory(resolve(values.out))}`);
  } catch (error) {
    console.error(error instanceof Error ? error.message : String(error));
    process.exit(1);
  }
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) main();

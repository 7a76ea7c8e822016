import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { reportDocument } from './document.ts';
import { toHtml, toMarkdown } from './render.ts';
import type { ComplianceReport } from './report.ts';
import type { CfnTemplate, StackTemplate } from './template.ts';

/** Where the evidence pack goes inside a cloud assembly directory. */
export const complianceDirectory = (outdir: string) => join(outdir, 'compliance');

export interface WrittenPack {
  readonly directory: string;
  readonly files: readonly string[];
}

/** Writes `report.json`, `report.md` and `report.html` (the same data) into `<outdir>/compliance/`. */
export function writePack(outdir: string, report: ComplianceReport): WrittenPack {
  const directory = complianceDirectory(outdir);
  mkdirSync(directory, { recursive: true });
  const blocks = reportDocument(report);
  const files = {
    'report.json': `${JSON.stringify(report, null, 2)}\n`,
    'report.md': toMarkdown(blocks),
    'report.html': toHtml(blocks, `Compliance evidence: ${report.header.product}`),
  };
  for (const [name, content] of Object.entries(files)) writeFileSync(join(directory, name), content);
  return { directory, files: Object.keys(files).map((name) => join(directory, name)) };
}

/** A template file as the report reads it; the stack name is the file's (`<stack>.template.json`). */
export function readStackTemplate(path: string, pseudo?: Record<string, string>, stackName?: string): StackTemplate {
  const template = JSON.parse(readFileSync(path, 'utf8')) as CfnTemplate;
  if (!template || typeof template.Resources !== 'object')
    throw new Error(`${path} is not a CloudFormation template (no Resources)`);
  return {
    stackName:
      stackName ??
      basename(path)
        .replace(/\.template\.json$/, '')
        .replace(/\.json$/, ''),
    template,
    ...(pseudo && { pseudo }),
  };
}

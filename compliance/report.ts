import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { Changes } from './changes.ts';
import { auditorEvidence, type AuditorEvidence } from './auditor.ts';
import { controlIds, equivalentChecks, familyOf } from './controls.ts';
import { accessMatrix, type Principal } from './iam-matrix.ts';
import { inventoryOf, type Inventory } from './inventory.ts';
import type { NagOutcome, NagResult } from './nag-results.ts';
import type { StackTemplate } from './template.ts';

/** The evidence pack's data: `report.json` as written, and what the HTML and Markdown render. */

interface ReportHeader {
  readonly product: string;
  readonly environment: string;
  readonly region: string;
  /** Account id, or "not resolved" for an environment-agnostic synth. */
  readonly account: string;
  readonly gitCommit: string;
  readonly synthTime: string;
  /** Template files the report was made from, relative to the cloud assembly directory. */
  readonly templates: readonly string[];
  /** SHA-256 of each template file as written, by file name: identifies exactly what was assessed. */
  readonly templateSha256?: Readonly<Record<string, string>>;
  readonly versions: { readonly 'aws-cdk-lib': string; readonly 'cdk-nag': string; readonly packs: readonly string[] };
}

export type Totals = Record<'compliant' | 'acknowledged' | 'notCompliant', number>;

interface RuleReport {
  readonly rule: string;
  readonly level: string;
  readonly info: string;
  readonly explanation: string;
  readonly controls: readonly string[];
  /** The Security Hub control and Prowler check testing the same, where one exists. */
  readonly equivalents?: string;
  readonly totals: Totals;
  readonly results: readonly {
    readonly ruleId: string;
    readonly resource: string;
    readonly logicalId: string;
    readonly resourceType: string;
    readonly outcome: NagOutcome;
    readonly reason?: string;
    readonly error?: string;
  }[];
}

interface PackReport {
  readonly name: string;
  readonly totals: Totals;
  readonly rules: readonly RuleReport[];
}

interface ControlFamily {
  readonly family: string;
  readonly name: string;
  readonly controls: readonly { readonly id: string; readonly rules: readonly string[]; readonly totals: Totals }[];
}

export interface ComplianceReport {
  readonly header: ReportHeader;
  readonly packs: readonly PackReport[];
  readonly controlFamilies: readonly ControlFamily[];
  readonly access: readonly { readonly stack: string; readonly principals: readonly Principal[] }[];
  readonly inventory: readonly ({ readonly stack: string } & Inventory)[];
  /** Encryption, retention, backups, log integrity and answered scanner findings, per stack. */
  readonly evidence?: readonly ({ readonly stack: string } & AuditorEvidence)[];
  /** The SBOM written next to the report, when the synth wrote one. */
  readonly sbom?: { readonly file: string; readonly packages: number };
  readonly changes?: Changes;
}

const OUTCOME_KEY: Record<NagOutcome, keyof Totals> = {
  compliant: 'compliant',
  acknowledged: 'acknowledged',
  'not compliant': 'notCompliant',
};

function count(outcomes: readonly NagOutcome[]): Totals {
  const totals: Totals = { compliant: 0, acknowledged: 0, notCompliant: 0 };
  for (const outcome of outcomes) totals[OUTCOME_KEY[outcome]] += 1;
  return totals;
}

function packReport(name: string, results: readonly NagResult[]): PackReport {
  const byRule = new Map<string, NagResult[]>();
  for (const result of results) byRule.set(result.rule, [...(byRule.get(result.rule) ?? []), result]);
  const rules = [...byRule].map(([rule, ruleResults]): RuleReport => {
    const first = ruleResults[0]!;
    return {
      rule,
      level: first.level,
      info: first.info,
      explanation: first.explanation,
      controls: controlIds(first.info),
      ...(equivalentChecks(rule) && { equivalents: equivalentChecks(rule) }),
      totals: count(ruleResults.map((r) => r.outcome)),
      results: ruleResults.map((r) => ({
        ruleId: r.ruleId,
        resource: r.constructPath,
        logicalId: r.logicalId,
        resourceType: r.resourceType,
        outcome: r.outcome,
        ...(r.reason !== undefined && { reason: r.reason }),
        ...(r.error !== undefined && { error: r.error }),
      })),
    };
  });
  rules.sort((a, b) => a.rule.localeCompare(b.rule, 'en', { numeric: true }));
  return { name, totals: count(results.map((r) => r.outcome)), rules };
}

function controlFamilies(packs: readonly PackReport[]): ControlFamily[] {
  const controls = new Map<string, { rules: Set<string>; outcomes: NagOutcome[] }>();
  for (const rule of packs.flatMap((pack) => pack.rules)) {
    for (const id of rule.controls) {
      const entry = controls.get(id) ?? { rules: new Set(), outcomes: [] };
      entry.rules.add(rule.rule);
      entry.outcomes.push(...rule.results.map((r) => r.outcome));
      controls.set(id, entry);
    }
  }
  const families = new Map<string, ControlFamily['controls'][number][]>();
  for (const [id, entry] of [...controls].sort(([a], [b]) => a.localeCompare(b, 'en', { numeric: true }))) {
    const { code } = familyOf(id);
    families.set(code, [...(families.get(code) ?? []), { id, rules: [...entry.rules], totals: count(entry.outcomes) }]);
  }
  return [...families].map(([family, list]) => ({ family, name: familyOf(`${family}-1`).name, controls: list }));
}

/** Version of an installed package, from its package.json. */
function packageVersion(name: string): string {
  try {
    const require = createRequire(import.meta.url);
    return (JSON.parse(readFileSync(require.resolve(`${name}/package.json`), 'utf8')) as { version: string }).version;
  } catch {
    return 'unknown';
  }
}

/** The commit the synth ran from, marked when the working tree has changes not in it. */
function gitCommit(root: string): string {
  try {
    const run = (...args: string[]) =>
      execFileSync('git', args, { cwd: root, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim();
    const commit = run('rev-parse', 'HEAD');
    return run('status', '--porcelain').length > 0 ? `${commit} (with uncommitted changes)` : commit;
  } catch {
    return 'not a git checkout';
  }
}

export interface ReportInput {
  readonly product: string;
  readonly environment: string;
  readonly stacks: readonly (StackTemplate & {
    readonly region?: string;
    readonly account?: string;
    readonly templateFile: string;
    readonly sha256?: string;
  })[];
  readonly results: readonly NagResult[];
  readonly packs: readonly string[];
  /** Project folder holding `lambdas/` and the git checkout. */
  readonly root: string;
  readonly synthTime: Date;
  readonly changes?: Changes;
}

export function buildReport(input: ReportInput): ComplianceReport {
  const distinct = (values: (string | undefined)[], missing: string) =>
    [...new Set(values.map((v) => v ?? missing))].join(', ') || missing;
  const packs = input.packs.map((name) =>
    packReport(
      name,
      input.results.filter((r) => r.pack === name),
    ),
  );
  return {
    header: {
      product: input.product,
      environment: input.environment,
      region: distinct(
        input.stacks.map((s) => s.region),
        'not resolved',
      ),
      account: distinct(
        input.stacks.map((s) => s.account),
        'not resolved',
      ),
      gitCommit: gitCommit(input.root),
      synthTime: input.synthTime.toISOString(),
      templates: input.stacks.map((s) => s.templateFile),
      templateSha256: Object.fromEntries(input.stacks.flatMap((s) => (s.sha256 ? [[s.templateFile, s.sha256]] : []))),
      versions: {
        'aws-cdk-lib': packageVersion('aws-cdk-lib'),
        'cdk-nag': packageVersion('cdk-nag'),
        packs: input.packs,
      },
    },
    packs,
    controlFamilies: controlFamilies(packs),
    access: input.stacks.map((stack) => ({ stack: stack.stackName, principals: accessMatrix(stack, input.root) })),
    inventory: input.stacks.map((stack) => ({ stack: stack.stackName, ...inventoryOf(stack) })),
    evidence: input.stacks.map((stack) => ({ stack: stack.stackName, ...auditorEvidence(stack, input.root) })),
    ...(input.changes && { changes: input.changes }),
  };
}

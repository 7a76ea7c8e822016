import type { InventoryItem } from './inventory.ts';
import type { ComplianceReport, Totals } from './report.ts';

/**
 * The report as a list of headings, paragraphs, lists and tables, so the Markdown and HTML
 * files render exactly the same content.
 */

type Tone = 'good' | 'note' | 'bad';
export type Cell = string | { readonly text: string; readonly tone: Tone };

export type Block =
  | { readonly kind: 'heading'; readonly level: 1 | 2 | 3 | 4; readonly text: string; readonly id?: string }
  | { readonly kind: 'paragraph'; readonly text: string; readonly tone?: Tone }
  | { readonly kind: 'list'; readonly items: readonly string[] }
  | { readonly kind: 'table'; readonly headers: readonly string[]; readonly rows: readonly (readonly Cell[])[] };

const heading = (level: 1 | 2 | 3 | 4, text: string, id?: string): Block => ({
  kind: 'heading',
  level,
  text,
  ...(id && { id }),
});
const paragraph = (text: string, tone?: Tone): Block => ({ kind: 'paragraph', text, ...(tone && { tone }) });
const table = (headers: string[], rows: Cell[][]): Block => ({ kind: 'table', headers, rows });

export const cellText = (cell: Cell): string => (typeof cell === 'string' ? cell : cell.text);
export const slug = (text: string) =>
  text
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '');

const OUTCOME_TONE: Record<string, Tone> = { compliant: 'good', acknowledged: 'note', 'not compliant': 'bad' };
const totalsCells = (totals: Totals): Cell[] => [
  String(totals.compliant),
  totals.acknowledged > 0 ? { text: String(totals.acknowledged), tone: 'note' } : '0',
  totals.notCompliant > 0 ? { text: String(totals.notCompliant), tone: 'bad' } : { text: '0', tone: 'good' },
];

function headerBlocks(report: ComplianceReport): Block[] {
  const h = report.header;
  return [
    heading(1, `Compliance evidence: ${h.product}`),
    table(
      ['', ''],
      [
        ['Product', h.product],
        ['Environment', h.environment],
        ['Region', h.region],
        ['Account', h.account],
        ['Git commit', h.gitCommit],
        ...Object.entries(h.templateSha256 ?? {}).map(([file, sha]): Cell[] => [`SHA-256 of ${file}`, sha]),
        ...(report.changes?.baselineIdentity
          ? [
              [
                'Compared with',
                `${report.changes.baselineIdentity.source}, git commit ${report.changes.baselineIdentity.gitCommit}; ${report.changes.baselineIdentity.templates.map((t) => `${t.stack} SHA-256 ${t.sha256}`).join('; ')}`,
              ] as Cell[],
            ]
          : []),
        ['Synthesized', h.synthTime],
        ['aws-cdk-lib', h.versions['aws-cdk-lib']],
        ['cdk-nag', h.versions['cdk-nag']],
        ['Packs run', h.versions.packs.join(', ')],
      ],
    ),
    paragraph(
      'Written by every synth from the synthesized templates and the cdk-nag packs that ran on them. Each rule is listed with every resource it applies to: compliant, acknowledged (with the reason recorded next to the resource), or not compliant (which stops synthesis).',
    ),
  ];
}

function summaryBlocks(report: ComplianceReport): Block[] {
  const principals = report.access.flatMap((a) => a.principals);
  const unused = principals.reduce((n, p) => n + p.unusedGrants.length, 0);
  const ungranted = principals.reduce((n, p) => n + p.ungrantedUses.length, 0);
  const overGranted = principals.reduce((n, p) => n + (p.overGrants?.length ?? 0), 0);
  return [
    heading(2, 'Summary', 'summary'),
    table(
      ['Pack', 'Rules applied', 'Compliant', 'Acknowledged', 'Not compliant'],
      report.packs.map((pack) => [pack.name, String(pack.rules.length), ...totalsCells(pack.totals)]),
    ),
    paragraph(
      `IAM: ${principals.length} principals, ${new Set(principals.flatMap((p) => p.rows.map((row) => row.statement))).size} policy statements; ${unused} granted actions used by no code path; ${ungranted} actions used by code but not granted; ${overGranted} grants on a resource the code never calls the action on (checked per table, its base table apart from its indexes, and per user pool, SES identity and SNS topic; other services per action).`,
      unused + ungranted + overGranted > 0 ? 'bad' : 'good',
    ),
  ];
}

function controlBlocks(report: ComplianceReport): Block[] {
  if (report.controlFamilies.length === 0) return [];
  return [
    heading(2, 'NIST 800-53 controls by family', 'controls'),
    paragraph('Control IDs as each rule states them; the counts are the results of the rules that name the control.'),
    ...report.controlFamilies.flatMap((family) => [
      heading(3, `${family.family}: ${family.name}`),
      table(
        ['Control', 'Rules', 'Compliant', 'Acknowledged', 'Not compliant'],
        family.controls.map((control) => [control.id, control.rules.join(', '), ...totalsCells(control.totals)]),
      ),
    ]),
  ];
}

function packBlocks(report: ComplianceReport): Block[] {
  return report.packs.flatMap((pack) => [
    heading(2, `Rules and resources: ${pack.name}`, `pack-${slug(pack.name)}`),
    table(
      ['Rule', 'Resource', 'Result', 'Reason'],
      pack.rules.flatMap((rule) =>
        rule.results.map((result, index): Cell[] => [
          index === 0
            ? `${rule.rule} (${rule.level}): ${rule.info}${rule.equivalents ? `\nSame check: ${rule.equivalents}` : ''}`
            : '',
          `${result.resource}${result.ruleId !== rule.rule ? ` ${result.ruleId.slice(rule.rule.length)}` : ''}`,
          { text: result.outcome, tone: OUTCOME_TONE[result.outcome]! },
          result.reason ?? result.error ?? '',
        ]),
      ),
    ),
  ]);
}

function acknowledgementBlocks(report: ComplianceReport): Block[] {
  const rows = report.packs.flatMap((pack) =>
    pack.rules.flatMap((rule) =>
      rule.results
        .filter((r) => r.outcome === 'acknowledged')
        .map((r): Cell[] => [r.ruleId, r.resource, r.reason ?? '']),
    ),
  );
  return [
    heading(2, 'Accepted findings and why', 'acknowledged'),
    rows.length > 0 ? table(['Finding', 'Resource', 'Reason'], rows) : paragraph('None.'),
  ];
}

function accessBlocks(report: ComplianceReport): Block[] {
  return [
    heading(2, 'IAM access matrix', 'access'),
    paragraph(
      'Every statement of every identity policy and resource policy in the templates, one row per action. "Used by" names the handler code (file:line and function) whose AWS SDK call needs the action, or the AWS service that exercises it; an empty cell is a grant nothing uses.',
    ),
    ...report.access.flatMap(({ stack, principals }) =>
      principals.flatMap((principal) => [
        heading(3, `${principal.name}`),
        paragraph(
          [
            `Kind: ${principal.kind}.`,
            principal.trustedBy.length > 0 ? `Principal: ${principal.trustedBy.join(', ')}.` : '',
            principal.usedByResources.length > 0 ? `Assumed by: ${principal.usedByResources.join(', ')}.` : '',
            principal.code.length > 0 ? `Code scanned: ${principal.code.join(', ')}.` : '',
            `Stack: ${stack}.`,
          ]
            .filter(Boolean)
            .join(' '),
        ),
        table(
          ['Effect', 'Action', 'Resources', 'Conditions', 'Used by', 'Policy'],
          principal.rows.map((row) => [
            row.effect,
            row.action,
            row.resources.join('\n'),
            row.conditions.join('\n'),
            row.usedBy.length > 0
              ? row.usedBy.join('\n')
              : { text: 'no code path uses this', tone: row.effect === 'Allow' ? 'bad' : 'note' },
            row.source,
          ]),
        ),
        ...(principal.unusedGrants.length > 0
          ? [paragraph(`Granted but used by no code path: ${principal.unusedGrants.join(', ')}.`, 'bad')]
          : []),
        ...principal.ungrantedUses.map((use) =>
          paragraph(`Used but not granted: ${use.action} at ${use.usedBy.join(', ')}.`, 'bad'),
        ),
        ...(principal.overGrants ?? []).map((grant) =>
          paragraph(
            `Granted on a resource the code never calls it on: ${grant.action} on ${grant.resource} (${grant.source}); the code calls it on ${grant.usedOn.join(', ')}.`,
            'bad',
          ),
        ),
        ...(principal.withheldUses ?? []).map((use) =>
          paragraph(
            `In the code but never called, so not granted: ${use.action} at ${use.usedBy.join(', ')}. ${use.reason}`,
          ),
        ),
        ...(principal.callsWithoutIam.length > 0
          ? [
              paragraph(
                `Calls authorized by the user's own access token (no IAM permission): ${principal.callsWithoutIam.join('; ')}.`,
              ),
            ]
          : []),
      ]),
    ),
  ];
}

function itemTables(items: readonly InventoryItem[]): Block[] {
  const kinds = [...new Set(items.map((item) => item.kind))];
  return kinds.flatMap((kind) => {
    const ofKind = items.filter((item) => item.kind === kind);
    const labels = [...new Set(ofKind.flatMap((item) => Object.keys(item.settings)))];
    return [
      heading(4, kind),
      table(
        ['Name', ...labels],
        ofKind.map((item) => [item.name, ...labels.map((label) => item.settings[label] ?? '')]),
      ),
    ];
  });
}

function inventoryBlocks(report: ComplianceReport): Block[] {
  return [
    heading(2, 'Data and exposure inventory', 'inventory'),
    ...report.inventory.flatMap((inventory) => [
      heading(3, `Data stores (${inventory.stack})`),
      ...itemTables(inventory.dataStores),
      heading(3, `Public entry points (${inventory.stack})`),
      ...itemTables(inventory.entryPoints),
      heading(3, `Sign-in and session settings (${inventory.stack})`),
      ...itemTables(inventory.identity),
    ]),
  ];
}

function changeBlocks(report: ComplianceReport): Block[] {
  const changes = report.changes;
  if (!changes) {
    return [
      heading(2, 'Changes since the last release', 'changes'),
      paragraph(
        'No baseline given. `npm run compliance -- --since <cloud assembly directory of the last release>` adds the security-relevant changes of every stack here, with both sides identified by git commit and template SHA-256.',
      ),
    ];
  }
  return [
    heading(2, 'Changes since the last release', 'changes'),
    paragraph(`Baseline: ${changes.baseline}. ${changes.items.length} security-relevant change(s).`),
    ...(changes.baselineIdentity && changes.currentIdentity
      ? [
          table(
            ['Side', 'Git commit', 'Templates (SHA-256)'],
            [
              [
                'Baseline',
                changes.baselineIdentity.gitCommit,
                changes.baselineIdentity.templates.map((t) => `${t.stack}: ${t.sha256}`).join('\n'),
              ],
              [
                'This synthesis',
                changes.currentIdentity.gitCommit,
                changes.currentIdentity.templates.map((t) => `${t.stack}: ${t.sha256}`).join('\n'),
              ],
            ],
          ),
        ]
      : []),
    ...(changes.items.length > 0
      ? [
          table(
            ['Area', 'Change', 'Subject', 'Detail'],
            changes.items.map((c) => [
              c.area,
              { text: c.change, tone: c.change === 'broadened' || c.change === 'added' ? 'bad' : 'note' },
              c.subject,
              c.detail,
            ]),
          ),
        ]
      : []),
  ];
}

function auditorBlocks(report: ComplianceReport): Block[] {
  if (!report.evidence) return [];
  return [
    heading(2, 'What auditors ask for', 'auditors'),
    paragraph(
      'Computed from the templates: per data store the personal data it holds, encryption at rest and in transit, retention, backups and the recovery point and time their settings give; log integrity, split into what the stack does and what the account must provide; the findings AWS Security Hub and Prowler raise on this design, each answered; and the software bill of materials.',
    ),
    ...report.evidence.flatMap((evidence) => [
      ...(evidence.stores.length > 0
        ? [
            heading(3, `Data stores (${evidence.stack})`),
            table(
              ['Store', 'Kind', 'Personal data', 'At rest', 'In transit', 'Retention', 'Backup', 'RPO / RTO'],
              evidence.stores.map((s) => [
                s.store,
                s.kind,
                s.classification,
                s.atRest,
                s.inTransit,
                s.retention,
                s.backup,
                s.rpoRto,
              ]),
            ),
          ]
        : []),
      ...(evidence.logIntegrity.length > 0
        ? [
            heading(3, `Log integrity (${evidence.stack})`),
            table(
              ['Logs', 'What the stack does', 'What the account must provide'],
              evidence.logIntegrity.map((l) => [l.topic, l.stack, l.account]),
            ),
          ]
        : []),
      ...(evidence.restoreSteps.length > 0
        ? [
            heading(3, `Restoring a table (${evidence.stack})`),
            ...evidence.restoreSteps.map((step, i) => paragraph(`${i + 1}. ${step}`)),
          ]
        : []),
      ...(evidence.findings.length > 0
        ? [
            heading(3, `Scanner findings answered (${evidence.stack})`),
            table(
              ['Finding', 'Raised by', 'Resources', 'Design reason', 'Stricter choice'],
              evidence.findings.map((f) => [f.finding, f.raisedBy, f.resources, f.answer, f.stricterChoice]),
            ),
          ]
        : []),
    ]),
    heading(3, 'Software bill of materials'),
    paragraph(
      report.sbom
        ? `\`${report.sbom.file}\` (CycloneDX 1.6 JSON, next to this report): ${report.sbom.packages} packages bundled into the functions and the SPA, each with its version and the bundles it is in.`
        : 'Not written by this synth: `npm run synth` (the CDK CLI) writes `sbom.cdx.json` next to this report.',
    ),
  ];
}

export function reportDocument(report: ComplianceReport): Block[] {
  const body = [
    ...summaryBlocks(report),
    ...changeBlocks(report),
    ...controlBlocks(report),
    ...acknowledgementBlocks(report),
    ...accessBlocks(report),
    ...inventoryBlocks(report),
    ...auditorBlocks(report),
    ...packBlocks(report),
  ];
  const contents = body
    .filter((b): b is Extract<Block, { kind: 'heading' }> => b.kind === 'heading' && b.level === 2)
    .map((b) => b.text);
  return [...headerBlocks(report), heading(2, 'Contents'), { kind: 'list', items: contents }, ...body];
}

import { accessMatrix, type Principal } from './iam-matrix.ts';
import { inventoryOf, type InventoryItem } from './inventory.ts';
import { acknowledgementsOf, resourceName, type StackTemplate } from './template.ts';

/**
 * The security-relevant differences between a baseline template and the current one, in
 * the spirit of `cdk diff`'s security-changes table: IAM statements added, removed or
 * broadened, public entry points, encryption/backup/retention settings, and acknowledgements.
 */

interface Change {
  readonly area: 'Stack' | 'Resource' | 'IAM' | 'Entry point' | 'Data store' | 'Identity' | 'Acknowledgement';
  readonly change: 'added' | 'removed' | 'broadened' | 'narrowed' | 'changed';
  readonly subject: string;
  readonly detail: string;
}

/**
 * One side of a comparison: where its templates came from, the commit they were made from, and each template's
 * SHA-256.
 */
export interface SynthesisIdentity {
  readonly source: string;
  readonly gitCommit: string;
  readonly templates: readonly { readonly stack: string; readonly sha256: string }[];
}

export interface Changes {
  readonly baseline: string;
  /** The baseline's and the current synthesis' identities (absent in packs written before they were recorded). */
  readonly baselineIdentity?: SynthesisIdentity;
  readonly currentIdentity?: SynthesisIdentity;
  readonly items: readonly Change[];
}

/**
 * Resource types whose every addition, removal or property change is listed, whatever the
 * summaries above make of it: identity and resource policies, keys, topics, buckets,
 * distributions, Cognito, function URLs and their permissions, alarms.
 */
const SECURITY_RESOURCE_TYPES =
  /^AWS::(IAM|KMS|SNS|SQS|S3|CloudFront|Cognito|CloudWatch|Logs|WAFv2|SecretsManager|AppSync|DynamoDB)::|^AWS::Lambda::(Url|Permission|Function)$/;

const short = (value: unknown) => {
  const text = value === undefined ? '(not set)' : JSON.stringify(value);
  return text.length > 160 ? `${text.slice(0, 157)}...` : text;
};

/** Property paths whose values differ, with both values. */
function propertyChanges(before: unknown, after: unknown, path = ''): string[] {
  const isObject = (value: unknown): value is Record<string, unknown> =>
    typeof value === 'object' && value !== null && !Array.isArray(value);
  if (isObject(before) && isObject(after)) {
    return [...new Set([...Object.keys(before), ...Object.keys(after)])].flatMap((key) =>
      propertyChanges(before[key], after[key], path ? `${path}.${key}` : key),
    );
  }
  return JSON.stringify(before) === JSON.stringify(after)
    ? []
    : [`${path || '(whole resource)'}: ${short(before)} → ${short(after)}`];
}

// Asset hashes and the like change with every build and say nothing about security.
const IGNORED_PATHS =
  /^(Code|Content|SourceObjectKeys|Metadata)(\.|$)|^Properties\.(Code|Content|SourceObjectKeys)(\.|$)/;

function resourceChanges(before: StackTemplate, after: StackTemplate): Change[] {
  const changes: Change[] = [];
  const subject = (stack: StackTemplate, id: string) =>
    `${stack.template.Resources[id]!.Type} ${resourceName(stack, id)} (${stack.stackName})`;
  for (const [id, resource] of Object.entries(after.template.Resources)) {
    if (!SECURITY_RESOURCE_TYPES.test(resource.Type)) continue;
    const old = before.template.Resources[id];
    if (!old) {
      changes.push({
        area: 'Resource',
        change: 'added',
        subject: subject(after, id),
        detail: short(resource.Properties ?? {}),
      });
      continue;
    }
    const differences = propertyChanges(
      { Properties: old.Properties, DeletionPolicy: old.DeletionPolicy },
      { Properties: resource.Properties, DeletionPolicy: resource.DeletionPolicy },
    ).filter((line) => !IGNORED_PATHS.test(line.split(':')[0]!));
    if (differences.length > 0)
      changes.push({
        area: 'Resource',
        change: 'changed',
        subject: subject(after, id),
        detail: differences.join('; '),
      });
  }
  for (const [id, resource] of Object.entries(before.template.Resources)) {
    if (SECURITY_RESOURCE_TYPES.test(resource.Type) && !after.template.Resources[id]) {
      changes.push({
        area: 'Resource',
        change: 'removed',
        subject: subject(before, id),
        detail: short(resource.Properties ?? {}),
      });
    }
  }
  return changes;
}

interface Grant {
  readonly principal: string;
  readonly effect: string;
  readonly action: string;
  readonly resources: Set<string>;
  readonly conditions: Set<string>;
}

function grants(principals: readonly Principal[]): Map<string, Grant> {
  const byKey = new Map<string, Grant>();
  for (const principal of principals) {
    for (const row of principal.rows) {
      const key = `${principal.id}\0${row.effect}\0${row.action}`;
      const grant = byKey.get(key) ?? {
        principal: principal.name,
        effect: row.effect,
        action: row.action,
        resources: new Set(),
        conditions: new Set(),
      };
      row.resources.forEach((r) => grant.resources.add(r));
      row.conditions.forEach((c) => grant.conditions.add(c));
      byKey.set(key, grant);
    }
  }
  return byKey;
}

const minus = (a: Set<string>, b: Set<string>) => [...a].filter((x) => !b.has(x));
const describe = (grant: Grant) =>
  `${grant.effect} ${grant.action} on ${[...grant.resources].join(', ') || '(no resource)'}${grant.conditions.size > 0 ? ` when ${[...grant.conditions].join(' and ')}` : ''}`;

function iamChanges(before: Map<string, Grant>, after: Map<string, Grant>): Change[] {
  const changes: Change[] = [];
  for (const [key, grant] of after) {
    const old = before.get(key);
    if (!old) {
      changes.push({ area: 'IAM', change: 'added', subject: grant.principal, detail: describe(grant) });
      continue;
    }
    const moreResources = minus(grant.resources, old.resources);
    const fewerResources = minus(old.resources, grant.resources);
    const droppedConditions = minus(old.conditions, grant.conditions);
    const newConditions = minus(grant.conditions, old.conditions);
    if (moreResources.length + fewerResources.length + droppedConditions.length + newConditions.length === 0) continue;
    // For an Allow, more resources or fewer conditions grant more; for a Deny, the reverse.
    const wider = moreResources.length > 0 || droppedConditions.length > 0;
    const narrower = fewerResources.length > 0 || newConditions.length > 0;
    const allow = grant.effect === 'Allow';
    const change =
      wider && !narrower
        ? allow
          ? 'broadened'
          : 'narrowed'
        : narrower && !wider
          ? allow
            ? 'narrowed'
            : 'broadened'
          : 'changed';
    const parts = [
      moreResources.length > 0 ? `resources added: ${moreResources.join(', ')}` : '',
      fewerResources.length > 0 ? `resources removed: ${fewerResources.join(', ')}` : '',
      droppedConditions.length > 0 ? `conditions removed: ${droppedConditions.join(', ')}` : '',
      newConditions.length > 0 ? `conditions added: ${newConditions.join(', ')}` : '',
    ].filter(Boolean);
    changes.push({
      area: 'IAM',
      change,
      subject: grant.principal,
      detail: `${grant.effect} ${grant.action}: ${parts.join('; ')}`,
    });
  }
  for (const [key, grant] of before) {
    if (!after.has(key))
      changes.push({ area: 'IAM', change: 'removed', subject: grant.principal, detail: describe(grant) });
  }
  return changes;
}

function itemChanges(
  area: Change['area'],
  before: readonly InventoryItem[],
  after: readonly InventoryItem[],
): Change[] {
  const key = (item: InventoryItem) => `${item.kind}\0${item.logicalId}`;
  const old = new Map(before.map((item) => [key(item), item]));
  const current = new Map(after.map((item) => [key(item), item]));
  const summary = (item: InventoryItem) =>
    Object.entries(item.settings)
      .map(([label, value]) => `${label}: ${value}`)
      .join('; ');
  const changes: Change[] = [];
  for (const [k, item] of current) {
    const previous = old.get(k);
    const subject = `${item.kind} ${item.name}`;
    if (!previous) {
      changes.push({ area, change: 'added', subject, detail: summary(item) });
      continue;
    }
    for (const label of new Set([...Object.keys(previous.settings), ...Object.keys(item.settings)])) {
      const was = previous.settings[label] ?? '(not set)';
      const now = item.settings[label] ?? '(not set)';
      if (was !== now) changes.push({ area, change: 'changed', subject, detail: `${label}: ${was} → ${now}` });
    }
  }
  for (const [k, item] of old)
    if (!current.has(k))
      changes.push({ area, change: 'removed', subject: `${item.kind} ${item.name}`, detail: summary(item) });
  return changes;
}

function acknowledgementChanges(before: StackTemplate, after: StackTemplate): Change[] {
  const all = (stack: StackTemplate) =>
    new Map(
      Object.entries(stack.template.Resources).flatMap(([id, resource]) =>
        acknowledgementsOf(resource).map(
          (ack) => [`${id}\0${ack.id}`, { resource: resourceName(stack, id), ...ack }] as const,
        ),
      ),
    );
  const old = all(before);
  const current = all(after);
  return [
    ...[...current]
      .filter(([k]) => !old.has(k))
      .map(([, ack]) => ({
        area: 'Acknowledgement' as const,
        change: 'added' as const,
        subject: `${ack.id} on ${ack.resource}`,
        detail: ack.reason,
      })),
    ...[...old]
      .filter(([k]) => !current.has(k))
      .map(([, ack]) => ({
        area: 'Acknowledgement' as const,
        change: 'removed' as const,
        subject: `${ack.id} on ${ack.resource}`,
        detail: ack.reason,
      })),
  ];
}

/** Security-relevant changes from `before` (the baseline) to `after`; `root` holds `lambdas/`. */
export function securityChanges(before: StackTemplate, after: StackTemplate, root: string, baseline: string): Changes {
  return { baseline, items: stackChanges(before, after, root) };
}

function stackChanges(before: StackTemplate, after: StackTemplate, root: string): Change[] {
  const oldInventory = inventoryOf(before);
  const newInventory = inventoryOf(after);
  return [
    ...iamChanges(grants(accessMatrix(before, root)), grants(accessMatrix(after, root))),
    ...itemChanges('Entry point', oldInventory.entryPoints, newInventory.entryPoints),
    ...itemChanges('Data store', oldInventory.dataStores, newInventory.dataStores),
    ...itemChanges('Identity', oldInventory.identity, newInventory.identity),
    ...acknowledgementChanges(before, after),
    ...resourceChanges(before, after),
  ];
}

const EMPTY = (stackName: string): StackTemplate => ({ stackName, template: { Resources: {} } });

/**
 * The changes between two syntheses, stack by stack (matched by name): a stack only one side
 * has is listed as added or removed, and each of its resources with it.
 */
export function synthesisChanges(
  before: readonly StackTemplate[],
  after: readonly StackTemplate[],
  root: string,
  identities: { readonly baseline: SynthesisIdentity; readonly current: SynthesisIdentity },
): Changes {
  const names = [...new Set([...after.map((s) => s.stackName), ...before.map((s) => s.stackName)])];
  const items = names.flatMap((name) => {
    const old = before.find((s) => s.stackName === name);
    const current = after.find((s) => s.stackName === name);
    const count = (stack: StackTemplate) => `${Object.keys(stack.template.Resources).length} resources`;
    const stackItem: Change[] = !old
      ? [{ area: 'Stack', change: 'added', subject: name, detail: `new stack, ${count(current!)}` }]
      : !current
        ? [
            {
              area: 'Stack',
              change: 'removed',
              subject: name,
              detail: `stack no longer synthesized (had ${count(old)})`,
            },
          ]
        : [];
    return [...stackItem, ...stackChanges(old ?? EMPTY(name), current ?? EMPTY(name), root)];
  });
  return {
    baseline: identities.baseline.source,
    baselineIdentity: identities.baseline,
    currentIdentity: identities.current,
    items,
  };
}

import { accessMatrix, type Principal } from './iam-matrix.ts';
import { inventoryOf, type InventoryItem } from './inventory.ts';
import { acknowledgementsOf, resourceName, type StackTemplate } from './template.ts';

/**
 * The security-relevant differences between a baseline template and the current one, in
 * the spirit of `cdk diff`'s security-changes table: IAM statements added, removed or
 * broadened, public entry points, encryption/backup/retention settings, and acknowledgements.
 */

export interface Change {
  readonly area: 'IAM' | 'Entry point' | 'Data store' | 'Identity' | 'Acknowledgement';
  readonly change: 'added' | 'removed' | 'broadened' | 'narrowed' | 'changed';
  readonly subject: string;
  readonly detail: string;
}

export interface Changes {
  readonly baseline: string;
  readonly items: readonly Change[];
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
      const grant = byKey.get(key) ?? { principal: principal.name, effect: row.effect, action: row.action, resources: new Set(), conditions: new Set() };
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
    const change = wider && !narrower ? (allow ? 'broadened' : 'narrowed') : narrower && !wider ? (allow ? 'narrowed' : 'broadened') : 'changed';
    const parts = [
      moreResources.length > 0 ? `resources added: ${moreResources.join(', ')}` : '',
      fewerResources.length > 0 ? `resources removed: ${fewerResources.join(', ')}` : '',
      droppedConditions.length > 0 ? `conditions removed: ${droppedConditions.join(', ')}` : '',
      newConditions.length > 0 ? `conditions added: ${newConditions.join(', ')}` : '',
    ].filter(Boolean);
    changes.push({ area: 'IAM', change, subject: grant.principal, detail: `${grant.effect} ${grant.action}: ${parts.join('; ')}` });
  }
  for (const [key, grant] of before) {
    if (!after.has(key)) changes.push({ area: 'IAM', change: 'removed', subject: grant.principal, detail: describe(grant) });
  }
  return changes;
}

function itemChanges(area: Change['area'], before: readonly InventoryItem[], after: readonly InventoryItem[]): Change[] {
  const key = (item: InventoryItem) => `${item.kind}\0${item.logicalId}`;
  const old = new Map(before.map((item) => [key(item), item]));
  const current = new Map(after.map((item) => [key(item), item]));
  const summary = (item: InventoryItem) => Object.entries(item.settings).map(([label, value]) => `${label}: ${value}`).join('; ');
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
  for (const [k, item] of old) if (!current.has(k)) changes.push({ area, change: 'removed', subject: `${item.kind} ${item.name}`, detail: summary(item) });
  return changes;
}

function acknowledgementChanges(before: StackTemplate, after: StackTemplate): Change[] {
  const all = (stack: StackTemplate) =>
    new Map(
      Object.entries(stack.template.Resources).flatMap(([id, resource]) =>
        acknowledgementsOf(resource).map((ack) => [`${id}\0${ack.id}`, { resource: resourceName(stack, id), ...ack }] as const),
      ),
    );
  const old = all(before);
  const current = all(after);
  return [
    ...[...current].filter(([k]) => !old.has(k)).map(([, ack]) => ({ area: 'Acknowledgement' as const, change: 'added' as const, subject: `${ack.id} on ${ack.resource}`, detail: ack.reason })),
    ...[...old].filter(([k]) => !current.has(k)).map(([, ack]) => ({ area: 'Acknowledgement' as const, change: 'removed' as const, subject: `${ack.id} on ${ack.resource}`, detail: ack.reason })),
  ];
}

/** Security-relevant changes from `before` (the baseline) to `after`; `root` holds `lambdas/`. */
export function securityChanges(before: StackTemplate, after: StackTemplate, root: string, baseline: string): Changes {
  const oldInventory = inventoryOf(before);
  const newInventory = inventoryOf(after);
  return {
    baseline,
    items: [
      ...iamChanges(grants(accessMatrix(before, root)), grants(accessMatrix(after, root))),
      ...itemChanges('Entry point', oldInventory.entryPoints, newInventory.entryPoints),
      ...itemChanges('Data store', oldInventory.dataStores, newInventory.dataStores),
      ...itemChanges('Identity', oldInventory.identity, newInventory.identity),
      ...acknowledgementChanges(before, after),
    ],
  };
}

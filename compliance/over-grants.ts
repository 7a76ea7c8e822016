import { RESOURCE_CHECKED_SERVICES, type CodeUse, type UseResource } from './code-usage.ts';
import { asList, isRecord, readable, readableList, referencedId, type StackTemplate } from './template.ts';
import { actionMatches, type Statement } from './policy-statement.ts';

/**
 * Over-grants of a function's role: an allowed action its code calls on fewer resources than
 * the grant covers (a whole table for one index, every pool for one), from the code's own
 * calls and the function's environment.
 */
export interface OverGrant {
  readonly action: string;
  readonly resource: string;
  readonly source: string;
  /** The resources the code path calls the action on. */
  readonly usedOn: readonly string[];
}

/** What a granted resource is, for the per-resource check. */
type GrantTarget =
  | { readonly kind: 'table'; readonly tableId?: string; readonly name?: string; readonly index?: string }
  | { readonly kind: 'pool'; readonly poolId?: string }
  | { readonly kind: 'identity'; readonly anyIdentity?: true }
  | { readonly kind: 'topic'; readonly topicId?: string }
  | { readonly kind: 'other' };

/** The logical ids an intrinsic value refers to, with the literal text around them. */
function flatten(value: unknown): { ids: string[]; text: string } {
  const id = referencedId(value);
  if (id) return { ids: [id], text: '' };
  if (typeof value === 'string') return { ids: [], text: value };
  const join = isRecord(value) ? value['Fn::Join'] : undefined;
  if (Array.isArray(join) && Array.isArray(join[1])) {
    const parts = (join[1] as unknown[]).map(flatten);
    return { ids: parts.flatMap((p) => p.ids), text: parts.map((p) => p.text).join(String(join[0])) };
  }
  return { ids: [], text: JSON.stringify(value) };
}

function grantTarget(stack: StackTemplate, service: string, resource: unknown): GrantTarget {
  const { ids, text } = flatten(resource);
  const typeOf = (id: string) => stack.template.Resources[id]?.Type;
  if (service === 'dynamodb') {
    const tableId = ids.find((id) => typeOf(id) === 'AWS::DynamoDB::Table');
    const literal = /:table\/([^/]+)(?:\/index\/(.+))?$/.exec(text);
    const index = /\/index\/(.+)$/.exec(text)?.[1];
    if (tableId) return { kind: 'table', tableId, ...(index && { index }) };
    if (literal) return { kind: 'table', name: literal[1], ...(literal[2] && { index: literal[2] }) };
  }
  if (service === 'cognito-idp') {
    const poolId = ids.find((id) => typeOf(id) === 'AWS::Cognito::UserPool');
    if (poolId || /:userpool\/[^*]+$/.test(text)) return { kind: 'pool', ...(poolId && { poolId }) };
  }
  if (service === 'ses' && /:identity\/[^*]+$/.test(text)) return { kind: 'identity' };
  // Every identity: only a function whose sends go to recipients known at run time uses that (code-usage.ts).
  if (service === 'ses' && /:identity\/\*$/.test(text)) return { kind: 'identity', anyIdentity: true };
  if (service === 'sns') {
    const topicId = ids.find((id) => typeOf(id) === 'AWS::SNS::Topic');
    if (topicId || /^arn:[^*]*:sns:[^*]+$/.test(text)) return { kind: 'topic', ...(topicId && { topicId }) };
  }
  return { kind: 'other' };
}

const ITEM_ACTIONS =
  /^dynamodb:(GetItem|PutItem|UpdateItem|DeleteItem|BatchGetItem|BatchWriteItem|ConditionCheckItem)$/i;

/**
 * Whether a code use covers a granted resource: the same table (its definition's
 * environment variable names it in the function's environment), read through an index or
 * not as the grant is on an index or on the table itself, the user pool the
 * function is configured with, an SES identity (every identity only for sends to recipients
 * known at run time), an SNS topic.
 */
function covers(
  stack: StackTemplate,
  environments: readonly Record<string, unknown>[],
  use: UseResource,
  target: GrantTarget,
): boolean {
  if (use.kind === 'table' && target.kind === 'table') {
    const sameTable = use.envVar
      ? environments.some(
          (variables) => target.tableId !== undefined && referencedId(variables[use.envVar!]) === target.tableId,
        )
      : use.name !== undefined && use.name === target.name;
    if (!sameTable) return false;
    if (use.index === '*') return true;
    // The base table apart from its indexes: a read through an index covers a grant on the table's indexes.
    return target.index === undefined ? use.index === undefined : use.index !== undefined;
  }
  if (use.kind === 'pool' && target.kind === 'pool') {
    const configured = environments
      .flatMap((variables) => Object.values(variables).map(referencedId))
      .filter((id) => id && stack.template.Resources[id]?.Type === 'AWS::Cognito::UserPool');
    return configured.length === 0 || target.poolId === undefined || configured.includes(target.poolId);
  }
  if (use.kind === 'identity' && target.kind === 'identity')
    return target.anyIdentity !== true || use.anyIdentity === true;
  return use.kind === target.kind && use.kind !== 'table';
}

export function overGrantsOf(
  stack: StackTemplate,
  documents: readonly { readonly source: string; readonly holder: string; readonly statements: readonly Statement[] }[],
  uses: readonly CodeUse[],
  referrers: readonly string[],
): OverGrant[] {
  const environments = referrers
    .map((id) => stack.template.Resources[id]!)
    .filter((resource) => resource.Type === 'AWS::Lambda::Function')
    .map((fn) => {
      const environment = fn.Properties?.Environment;
      return isRecord(environment) && isRecord(environment.Variables) ? environment.Variables : {};
    });
  const found: OverGrant[] = [];
  for (const { source, statements } of documents) {
    for (const statement of statements) {
      if (statement.Effect !== 'Allow' || statement.Resource === undefined || statement.Action === undefined) continue;
      for (const action of readableList(stack, statement.Action)) {
        const service = action.split(':')[0]!.toLowerCase();
        if (!(RESOURCE_CHECKED_SERVICES as readonly string[]).includes(service)) continue;
        const calls = uses.filter((use) => use.action && actionMatches(action, use.action));
        // An action no code calls is reported as an unused grant; a call whose resources the code does not name
        // cannot be checked.
        if (calls.length === 0 || calls.some((use) => use.resources === undefined)) continue;
        for (const resource of asList(statement.Resource)) {
          const target = grantTarget(stack, service, resource);
          // DynamoDB authorizes item reads and writes on the table ARN only: an index ARN in such a grant gives
          // nothing.
          if (target.kind === 'table' && target.index !== undefined && ITEM_ACTIONS.test(action)) continue;
          const matching = calls.filter((use) => actionMatches(action, use.action!));
          if (matching.some((use) => use.resources!.some((r) => covers(stack, environments, r, target)))) continue;
          found.push({
            action,
            resource: readable(stack, resource),
            source: `${source}${statement.Sid ? ` (${statement.Sid})` : ''}`,
            usedOn: [...new Set(matching.flatMap((use) => use.resources!.map(describeResource)))],
          });
        }
      }
    }
  }
  return found;
}

const describeResource = (resource: UseResource): string =>
  resource.kind === 'table'
    ? `table ${resource.envVar ?? resource.name}${resource.index === '*' ? ' (and its indexes)' : resource.index ? ` index ${resource.index}` : ''}`
    : resource.kind === 'pool'
      ? 'the user pool'
      : resource.kind === 'identity'
        ? resource.anyIdentity
          ? 'any SES identity (recipients known at run time)'
          : 'an SES identity'
        : 'an SNS topic';

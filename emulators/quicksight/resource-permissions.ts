import { z } from 'zod';
import { DEFAULT_NAMESPACE, parsePrincipal } from './arns.ts';
import { invalidParameter } from './errors.ts';
import type { ResourcePermission } from './state.ts';
import type { ApiContext } from './api-types.ts';

/**
 * Resource permissions (ResourcePermission, API reference:
 * https://docs.aws.amazon.com/quicksight/latest/APIReference/API_ResourcePermission.html) of
 * dashboards, datasets and data sources: who may do which of the resource's actions, changed
 * by Update*Permissions grants and revocations.
 */

/** The actions a dataset's permissions take (a dataset owner holds them all). */
export const DATA_SET_ACTIONS = [
  'quicksight:DescribeDataSet',
  'quicksight:DescribeDataSetPermissions',
  'quicksight:PassDataSet',
  'quicksight:DescribeIngestion',
  'quicksight:ListIngestions',
  'quicksight:UpdateDataSet',
  'quicksight:DeleteDataSet',
  'quicksight:CreateIngestion',
  'quicksight:CancelIngestion',
  'quicksight:UpdateDataSetPermissions',
] as const;

/** The actions a data source's permissions take (a data source owner holds them all). */
export const DATA_SOURCE_ACTIONS = [
  'quicksight:DescribeDataSource',
  'quicksight:DescribeDataSourcePermissions',
  'quicksight:PassDataSource',
  'quicksight:UpdateDataSource',
  'quicksight:DeleteDataSource',
  'quicksight:UpdateDataSourcePermissions',
] as const;

/**
 * A ResourcePermission list of a resource whose actions are `actions`: "Minimum number of 1 item.
 * Maximum number of 64 items."
 */
export const permissionListSchema = (actions: readonly [string, ...string[]], max = 64) =>
  z
    .array(
      z.object({
        Principal: z.string().min(1).max(256),
        Actions: z
          .array(z.enum(actions, { error: `must be among ${actions.join(', ')}` }))
          .min(1)
          .max(20),
      }),
    )
    .min(1)
    .max(max);

export interface PrincipalRules {
  /** Granted users and groups must exist; a revocation may name one already deleted, to clean up after it. */
  readonly mustExist: boolean;
  /**
   * Whether a namespace may be a principal: "The ARN of an Amazon QuickSight user, group, or
   * namespace associated with an analysis, dashboard, template, or theme", but only "a user or
   * group associated with a data source or dataset".
   */
  readonly namespaces: boolean;
}

/** Principals must be user or group ARNs (or, where allowed, the default namespace's ARN) of this account. */
export function requireValidPrincipals(
  context: ApiContext,
  permissions: readonly ResourcePermission[],
  rules: PrincipalRules,
): void {
  const invalid = permissions
    .map((p) => p.Principal)
    .filter((arn) => {
      const principal = parsePrincipal(context.scope, arn);
      if (!principal) return true;
      if (principal.kind === 'namespace') return !rules.namespaces || principal.namespace !== DEFAULT_NAMESPACE;
      if (principal.kind === 'group')
        return rules.mustExist && !context.store.state.groups.group(principal.namespace, principal.groupName);
      return rules.mustExist && !context.store.state.user(principal.namespace, principal.userName);
    });
  if (invalid.length > 0) throw invalidParameter(`Invalid principals given: ${invalid.join(', ')}`);
}

/** Grants add actions to a principal's entry; revocations remove them, dropping empty entries. */
export function mergePermissions(
  current: readonly ResourcePermission[],
  grants: readonly ResourcePermission[],
  revocations: readonly ResourcePermission[],
): ResourcePermission[] {
  const byPrincipal = new Map(current.map((p) => [p.Principal, new Set(p.Actions)]));
  for (const grant of grants) {
    const actions = byPrincipal.get(grant.Principal) ?? new Set<string>();
    grant.Actions.forEach((a) => actions.add(a));
    byPrincipal.set(grant.Principal, actions);
  }
  for (const revocation of revocations) {
    const actions = byPrincipal.get(revocation.Principal);
    revocation.Actions.forEach((a) => actions?.delete(a));
  }
  return [...byPrincipal]
    .filter(([, actions]) => actions.size > 0)
    .map(([Principal, actions]) => ({ Principal, Actions: [...actions].sort() }));
}

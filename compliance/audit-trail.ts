import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { codeUsesOf, describeUse, type CodeUse } from './code-usage.ts';
import { accessMatrix, type Principal } from './iam-matrix.ts';
import { actionMatches } from './policy-statement.ts';
import { asList, isRecord, referencedId, resourceName, resourcesOfType, type StackTemplate } from './template.ts';

/**
 * Who may write, change or delete the administrators' activity trail, and whether a write can
 * replace an entry, computed from the template's grants and the writing functions' code.
 *
 * IAM authorizes a DynamoDB write by action and resource only: no condition key carries a
 * request's ConditionExpression, so a policy cannot require the condition that keeps PutItem
 * from replacing an item. What IAM enforces is which actions each role has on the table; that
 * a put never overwrites is the code's condition, read from every PutItem call on the table.
 */

export interface TrailIntegrity {
  readonly topic: string;
  readonly stack: string;
  readonly account: string;
}

const PUT = 'dynamodb:PutItem';
/**
 * Actions that change or remove an item already written: updates and deletes one by one, in a
 * batch (whose puts take no condition either) or in PartiQL, and the whole table.
 */
const CHANGES = [
  'dynamodb:UpdateItem',
  'dynamodb:DeleteItem',
  'dynamodb:BatchWriteItem',
  'dynamodb:PartiQLUpdate',
  'dynamodb:PartiQLDelete',
  'dynamodb:DeleteTable',
];

const isTrailTable = (stack: StackTemplate, id: string) => resourceName(stack, id).endsWith('/Audit');

/** The granted action patterns of a principal, on the table, that allow one of `actions`. */
function grants(principal: Principal, table: string, actions: readonly string[]): string[] {
  const onTable = (resource: string) => resource === '*' || resource.startsWith(`${table}.`);
  return principal.rows
    .filter((row) => row.effect === 'Allow' && row.resources.some(onTable))
    .filter((row) => actions.some((action) => actionMatches(row.action, action)))
    .map((row) => row.action);
}

/** The functions running as a role: their handler and the environment variables naming the table. */
function functionsOf(stack: StackTemplate, roleId: string, tableId: string, root: string) {
  return resourcesOfType(stack.template, 'AWS::Lambda::Function')
    .filter(([, fn]) => referencedId(fn.Properties?.Role) === roleId)
    .flatMap(([, fn]) => {
      const variables = isRecord(fn.Properties?.Environment) ? fn.Properties.Environment.Variables : undefined;
      if (!isRecord(variables) || typeof variables.POWERTOOLS_SERVICE_NAME !== 'string') return [];
      const handler = variables.POWERTOOLS_SERVICE_NAME;
      if (!existsSync(join(root, 'lambdas', handler, 'handler.ts'))) return [];
      const tableVariables = Object.keys(variables).filter((name) => referencedId(variables[name]) === tableId);
      return [{ handler, tableVariables }];
    });
}

/** Whether a put's condition refuses an existing item: attribute_not_exists on the table's partition key. */
const refusesOverwrite = (use: CodeUse, partitionKey: string) =>
  use.conditions !== undefined &&
  use.conditions.every((condition) =>
    new RegExp(`^\\s*attribute_not_exists\\(\\s*${partitionKey}\\s*\\)\\s*$`).test(condition),
  );

export function auditTrailIntegrity(stack: StackTemplate, root: string): TrailIntegrity | undefined {
  const [tableId, table] =
    resourcesOfType(stack.template, 'AWS::DynamoDB::Table').find(([id]) => isTrailTable(stack, id)) ?? [];
  if (!tableId || !table) return undefined;
  const name = resourceName(stack, tableId);
  const partitionKey = asList(table.Properties?.KeySchema as { AttributeName?: string; KeyType?: string }[]).find(
    (key) => key.KeyType === 'HASH',
  )?.AttributeName;
  const principals = accessMatrix(stack, root);
  const role = (principal: Principal) => principal.name.split(':')[0]!;
  const writers = principals.filter((principal) => grants(principal, name, [PUT]).length > 0);
  const changers = principals.flatMap((principal) =>
    grants(principal, name, CHANGES).map((action) => `${role(principal)} ${action}`),
  );
  // Every put the writers' code makes on the table, or on a table it does not name.
  const puts = writers.flatMap((principal) =>
    functionsOf(stack, principal.id, tableId, root).flatMap(({ handler, tableVariables }) =>
      codeUsesOf(root, handler).filter(
        (use) =>
          use.action === PUT &&
          (use.resources === undefined ||
            use.resources.some((r) => r.kind === 'table' && tableVariables.includes(r.envVar ?? ''))),
      ),
    ),
  );
  const places = (uses: CodeUse[]) => [...new Set(uses.map(describeUse))].join(', ');
  const overwriting = puts.filter((use) => partitionKey === undefined || !refusesOverwrite(use, partitionKey));
  const writes =
    writers.length === 0
      ? 'Written by no role'
      : `Written by ${writers.map((principal) => `${role(principal)} ${PUT}`).join(', ')}`;
  const overwrite =
    puts.length === 0
      ? 'no put on the table is found in their code'
      : overwriting.length > 0
        ? `a put that can replace an entry (no condition refusing an existing key) at ${places(overwriting)}`
        : `every put in their code is conditioned on attribute_not_exists(${partitionKey}), so it never replaces an entry (${places(puts)}); IAM cannot require that condition (no condition key carries a ConditionExpression), so it holds for the stack's code, not for other code run with these roles`;
  const change =
    changers.length > 0
      ? `changed or deleted by ${changers.join(', ')}`
      : `no role of the stack is granted an action that changes or deletes an entry (${CHANGES.join(', ')})`;
  return {
    topic: `Administrators' activity trail (${name})`,
    stack: `${writes}; ${overwrite}; ${change}; point-in-time recovery keeps 35 days of its history.`,
    account:
      "Who may use the DynamoDB console or API on the table directly is decided by the account's IAM policies; CloudTrail data events on the table record such use.",
  };
}

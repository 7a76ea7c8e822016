import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { codeUsesOf, describeUse, type CodeUse } from './code-usage.ts';
import { platformUses } from './platform-uses.ts';
import {
  actionMatches,
  readableConditions,
  readablePrincipals,
  statementsOf,
  type Statement,
} from './policy-statement.ts';
import { overGrantsOf, type OverGrant } from './over-grants.ts';
import {
  asList,
  isRecord,
  readable,
  readableList,
  referencedId,
  resourceName,
  resourcesOfType,
  type StackTemplate,
} from './template.ts';
/**
 * Who may do what to which resource, from the identity policies attached to each role and
 * the resource policies (Lambda permissions, bucket policies) of a synthesized template.
 * Each row is one action of one statement; `usedBy` names the code (or AWS service) that
 * exercises it, so a grant nothing uses stands out.
 */

interface MatrixRow {
  /** Policy the statement is in, and its Sid. */
  readonly source: string;
  /**
   * The statement the row comes from: `<logical id of the policy holder>#<document>.<statement>`, one per template
   * statement.
   */
  readonly statement: string;
  readonly effect: string;
  readonly action: string;
  readonly resources: readonly string[];
  readonly conditions: readonly string[];
  readonly usedBy: readonly string[];
}

export interface Principal {
  readonly name: string;
  readonly kind: 'function role' | 'service role' | 'resource policy';
  /** Logical id of the role, or the principal of the resource policies. */
  readonly id: string;
  /** Who can act as this principal (role trust) or who it is (resource policy). */
  readonly trustedBy: readonly string[];
  /** Resources that run as this role. */
  readonly usedByResources: readonly string[];
  /** Handler entry points scanned for the role's uses. */
  readonly code: readonly string[];
  readonly rows: readonly MatrixRow[];
  /** Calls the code makes that IAM does not authorize (Cognito token-authorized operations). */
  readonly callsWithoutIam: readonly string[];
  /** Allowed actions no scanned code or known AWS service use exercises (function roles with code only). */
  readonly unusedGrants: readonly string[];
  /** Actions the scanned code calls that no Allow statement of this principal grants. */
  readonly ungrantedUses: readonly { readonly action: string; readonly usedBy: readonly string[] }[];
  /**
   * Calls in the scanned code that the function never makes, deliberately not granted, with the reason (role
   * metadata).
   */
  readonly withheldUses?: readonly {
    readonly action: string;
    readonly usedBy: readonly string[];
    readonly reason: string;
  }[];
  /**
   * Allowed (action, resource) pairs whose action the code calls, but never on that resource
   * (a table, index, user pool, SES identity or SNS topic no code path names): synth fails on them.
   */
  readonly overGrants?: readonly OverGrant[];
}

/** Role metadata written by PortalFunction.withholdCodePaths (lib/portal-function.ts). */
const WITHHELD_METADATA = 'portal:withheld-code-paths';

function withheldOf(stack: StackTemplate, roleId: string): Map<string, string> {
  const entries = stack.template.Resources[roleId]?.Metadata?.[WITHHELD_METADATA];
  const withheld = new Map<string, string>();
  for (const entry of asList(entries as { actions?: unknown; reason?: unknown }[] | undefined)) {
    if (!isRecord(entry) || typeof entry.reason !== 'string') continue;
    for (const action of asList(entry.actions as string[] | undefined))
      if (typeof action === 'string') withheld.set(action.toLowerCase(), entry.reason);
  }
  return withheld;
}

function rowsOf(
  stack: StackTemplate,
  source: string,
  statementId: string,
  statement: Statement,
  usedBy: (action: string) => string[],
): MatrixRow[] {
  const negated = statement.Action === undefined && statement.NotAction !== undefined;
  const actions = readableList(stack, negated ? statement.NotAction : statement.Action);
  const resources =
    statement.Resource !== undefined
      ? readableList(stack, statement.Resource)
      : readableList(stack, statement.NotResource).map((r) => `all except ${r}`);
  const conditions = readableConditions(stack, statement.Condition);
  const sid = statement.Sid ? ` (${statement.Sid})` : '';
  return actions.map((action) => ({
    source: `${source}${sid}`,
    statement: statementId,
    effect: statement.Effect ?? 'Allow',
    action: negated ? `all except ${action}` : action,
    resources,
    conditions,
    usedBy: usedBy(action),
  }));
}

/**
 * Identity policies attached to a role: inline, AWS::IAM::Policy and customer-managed policies in the template,
 * AWS-managed ones by ARN.
 */
function roleDocuments(
  stack: StackTemplate,
  roleId: string,
): { source: string; holder: string; statements: Statement[] }[] {
  const { Resources } = stack.template;
  const role = Resources[roleId]!;
  const attachedToRole = (props: Record<string, unknown> | undefined) =>
    asList(props?.Roles).some((ref) => referencedId(ref) === roleId);
  const documents = asList(role.Properties?.Policies as { PolicyName?: string; PolicyDocument?: unknown }[]).map(
    (policy, index) => ({
      source: `${resourceName(stack, roleId)} inline ${policy.PolicyName ?? ''}`.trim(),
      holder: `${roleId}#${index}`,
      statements: statementsOf(policy.PolicyDocument),
    }),
  );
  for (const type of ['AWS::IAM::Policy', 'AWS::IAM::ManagedPolicy']) {
    for (const [id, policy] of resourcesOfType(stack.template, type)) {
      if (attachedToRole(policy.Properties))
        documents.push({
          source: resourceName(stack, id),
          holder: `${id}#0`,
          statements: statementsOf(policy.Properties?.PolicyDocument),
        });
    }
  }
  for (const arn of asList(role.Properties?.ManagedPolicyArns)) {
    const id = referencedId(arn);
    if (id && Resources[id]?.Type === 'AWS::IAM::ManagedPolicy') {
      if (!attachedToRole(Resources[id]!.Properties))
        documents.push({
          source: resourceName(stack, id),
          holder: `${id}#0`,
          statements: statementsOf(Resources[id]!.Properties?.PolicyDocument),
        });
    } else {
      // An AWS-managed policy's statements are not in the template: named, so it cannot pass unseen.
      documents.push({
        source: readable(stack, arn),
        holder: `${roleId}#${readable(stack, arn)}`,
        statements: [
          { Effect: 'Allow', Action: `(statements of AWS-managed policy ${readable(stack, arn)})`, Resource: '*' },
        ],
      });
    }
  }
  return documents;
}

/** Resources whose properties refer to a logical id. */
function referrersOf(stack: StackTemplate, id: string): string[] {
  const refers = (node: unknown): boolean =>
    Array.isArray(node)
      ? node.some(refers)
      : isRecord(node)
        ? referencedId(node) === id || Object.values(node).some(refers)
        : false;
  return Object.entries(stack.template.Resources)
    .filter(([other, resource]) => other !== id && refers(resource.Properties))
    .map(([other]) => other);
}

/**
 * The handler folder a function's code comes from: its `POWERTOOLS_SERVICE_NAME`, when `lambdas/<name>/handler.ts`
 * exists.
 */
function handlerOf(stack: StackTemplate, functionId: string, root: string): string | undefined {
  const variables = stack.template.Resources[functionId]?.Properties?.Environment;
  const name =
    isRecord(variables) && isRecord(variables.Variables) ? variables.Variables.POWERTOOLS_SERVICE_NAME : undefined;
  return typeof name === 'string' && existsSync(join(root, 'lambdas', name, 'handler.ts')) ? name : undefined;
}

function rolePrincipal(stack: StackTemplate, roleId: string, root: string): Principal {
  const role = stack.template.Resources[roleId]!;
  const trustedBy = statementsOf(role.Properties?.AssumeRolePolicyDocument).flatMap((s) =>
    readablePrincipals(stack, s.Principal),
  );
  // A function runs as the role its Role property names; one that only carries the role's ARN
  // (to hand it to a service, as in a data source's RoleArn) does not run as it.
  const referrers = referrersOf(stack, roleId).filter((id) => {
    const resource = stack.template.Resources[id]!;
    if (['AWS::IAM::Policy', 'AWS::IAM::ManagedPolicy'].includes(resource.Type)) return false;
    return resource.Type !== 'AWS::Lambda::Function' || referencedId(resource.Properties?.Role) === roleId;
  });
  const handlers = referrers
    .filter((id) => stack.template.Resources[id]!.Type === 'AWS::Lambda::Function')
    .map((id) => handlerOf(stack, id, root))
    .filter((name): name is string => name !== undefined);
  const uses: CodeUse[] = handlers.flatMap((name) => codeUsesOf(root, name));
  const platform = platformUses(stack, roleId, referrers);
  const usedBy = (action: string) => [
    ...new Set([
      ...uses.filter((use) => use.action && actionMatches(action, use.action)).map(describeUse),
      ...platform.filter((use) => use.actions.some((a) => actionMatches(action, a))).map((use) => use.by),
    ]),
  ];
  const documents = roleDocuments(stack, roleId);
  const rows = documents.flatMap(({ source, holder, statements }) =>
    statements.flatMap((s, i) => rowsOf(stack, source, `${holder}.${i}`, s, usedBy)),
  );
  const allowed = rows.filter((row) => row.effect === 'Allow');
  const kind = handlers.length > 0 ? 'function role' : 'service role';
  const description = role.Properties?.Description;
  const withheld = withheldOf(stack, roleId);
  const notGranted = [...new Set(uses.flatMap((use) => (use.action ? [use.action] : [])))]
    .filter((action) => !allowed.some((row) => actionMatches(row.action, action)))
    .map((action) => ({ action, usedBy: [...new Set(uses.filter((use) => use.action === action).map(describeUse))] }));
  return {
    name: `${resourceName(stack, roleId)}${typeof description === 'string' ? `: ${description}` : ''}`,
    kind,
    id: roleId,
    trustedBy,
    usedByResources: referrers.map((id) => `${resourceName(stack, id)} (${stack.template.Resources[id]!.Type})`),
    code: handlers.map((name) => `lambdas/${name}/handler.ts`),
    rows,
    callsWithoutIam: [
      ...new Set(
        uses
          .filter((use) => !use.action)
          .map((use) => `${use.operation.replace(/Command$/, '')} at ${describeUse(use)}`),
      ),
    ],
    unusedGrants:
      kind === 'function role'
        ? [...new Set(allowed.filter((row) => row.usedBy.length === 0).map((row) => row.action))]
        : [],
    ungrantedUses: notGranted.filter((use) => !withheld.has(use.action.toLowerCase())),
    withheldUses: notGranted.flatMap((use) => {
      const reason = withheld.get(use.action.toLowerCase());
      return reason === undefined ? [] : [{ ...use, reason }];
    }),
    overGrants: kind === 'function role' ? overGrantsOf(stack, documents, uses, referrers) : [],
  };
}

/** Lambda permissions and bucket policy statements, grouped by the principal they name. */
function resourcePolicyPrincipals(stack: StackTemplate): Principal[] {
  const groups = new Map<string, { principal: string; name: string; rows: MatrixRow[] }>();
  const add = (principal: string, name: string, rows: MatrixRow[]) => {
    const group = groups.get(name) ?? { principal, name, rows: [] };
    groups.set(name, { ...group, rows: [...group.rows, ...rows] });
  };
  for (const [id, permission] of resourcesOfType(stack.template, 'AWS::Lambda::Permission')) {
    const p = permission.Properties ?? {};
    const condition: Record<string, Record<string, unknown>> = {};
    if (p.SourceArn !== undefined) condition.ArnLike = { 'aws:SourceArn': p.SourceArn };
    if (p.SourceAccount !== undefined) condition.StringEquals = { 'aws:SourceAccount': p.SourceAccount };
    if (p.FunctionUrlAuthType !== undefined)
      condition.StringEquals = { ...condition.StringEquals, 'lambda:FunctionUrlAuthType': p.FunctionUrlAuthType };
    if (p.InvokedViaFunctionUrl !== undefined)
      condition.Bool = { 'lambda:InvokedViaFunctionUrl': p.InvokedViaFunctionUrl };
    const principal = p.Principal === '*' ? 'AWS *' : `Service ${readable(stack, p.Principal)}`;
    const statement: Statement = { Effect: 'Allow', Action: p.Action, Resource: p.FunctionName, Condition: condition };
    const name =
      p.Principal === '*' ? 'Public invokers of function URLs (anyone on the internet)' : principalName(principal);
    add(
      principal,
      name,
      rowsOf(stack, resourceName(stack, id), `${id}#0.0`, statement, () =>
        platformUses(stack, id, []).map((use) => use.by),
      ),
    );
  }
  for (const { type, document, kind } of RESOURCE_POLICIES) {
    for (const [id, policy] of resourcesOfType(stack.template, type)) {
      statementsOf(documentOf(policy.Properties?.[document])).forEach((statement, index) => {
        const by = () => platformUses(stack, id, [], statement).map((use) => use.by);
        for (const principal of readablePrincipals(stack, statement.Principal)) {
          const name =
            principal === 'AWS *'
              ? `Any principal (${statement.Effect === 'Deny' ? 'deny rules' : `${kind} policies`})`
              : principalName(principal);
          add(
            principal,
            name,
            rowsOf(stack, `${resourceName(stack, id)} (${kind} policy)`, `${id}#0.${index}`, statement, by),
          );
        }
      });
    }
  }
  return [...groups.values()].map(({ principal, name, rows }) => ({
    name,
    kind: 'resource policy',
    id: principal,
    trustedBy: [principal],
    usedByResources: [],
    code: [],
    rows,
    callsWithoutIam: [],
    unusedGrants: [],
    ungrantedUses: [],
  }));
}

/** Resource types holding a resource policy, the property with its document, and what the policy is on. */
const RESOURCE_POLICIES: readonly { readonly type: string; readonly document: string; readonly kind: string }[] = [
  { type: 'AWS::S3::BucketPolicy', document: 'PolicyDocument', kind: 'bucket' },
  { type: 'AWS::KMS::Key', document: 'KeyPolicy', kind: 'key' },
  { type: 'AWS::SNS::TopicPolicy', document: 'PolicyDocument', kind: 'topic' },
  { type: 'AWS::SQS::QueuePolicy', document: 'PolicyDocument', kind: 'queue' },
  { type: 'AWS::Logs::ResourcePolicy', document: 'PolicyDocument', kind: 'log' },
];

/** A policy document, also when the template holds it as JSON text (CloudWatch Logs resource policies). */
function documentOf(value: unknown): unknown {
  if (typeof value !== 'string') return value;
  try {
    return JSON.parse(value) as unknown;
  } catch {
    return undefined;
  }
}

function principalName(principal: string): string {
  const names: Record<string, string> = {
    'Service cloudfront.amazonaws.com': "CloudFront's access to the bucket",
    'Service cognito-idp.amazonaws.com': "Cognito's triggers",
    'Service logging.s3.amazonaws.com': 'S3 server access log delivery',
    'Service appsync.amazonaws.com': 'AppSync',
    'Service cloudwatch.amazonaws.com': 'CloudWatch alarms',
  };
  return names[principal] ?? principal;
}

/** The access matrix of one stack; `root` is the project folder holding `lambdas/`. */
export function accessMatrix(stack: StackTemplate, root: string): Principal[] {
  const roles = resourcesOfType(stack.template, 'AWS::IAM::Role').map(([id]) => rolePrincipal(stack, id, root));
  return [...roles, ...resourcePolicyPrincipals(stack)];
}

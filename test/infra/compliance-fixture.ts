import { App, Stack, Validations } from 'aws-cdk-lib';
import * as iam from 'aws-cdk-lib/aws-iam';
import * as lambda from 'aws-cdk-lib/aws-lambda';
import { PATH_METADATA_ENABLE_CONTEXT } from 'aws-cdk-lib/cx-api';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { NagResultLog } from '#compliance/nag-results.ts';
import { ComplianceReportPlugin } from '#compliance/plugin.ts';
import { acknowledge, addCompliancePacks } from '#lib/compliance.ts';
import { PortalData } from '#lib/data.ts';
import type { ComplianceReport } from '#compliance/report.ts';

/**
 * A small app with a known policy for the evidence pack's tests: one function whose role
 * has a customer-managed policy, a public function URL permission, and handler code in a
 * project folder of its own (`root/lambdas/demo`).
 */

const DEMO_HANDLER = `import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { GetUserCommand, AdminGetUserCommand } from '@aws-sdk/client-cognito-identity-provider';
import { documents, users } from '../shared/clients.ts';

export async function handler(token: string) {
  await users.send(new GetUserCommand({ AccessToken: token }));
  await users.send(new AdminGetUserCommand({ UserPoolId: 'eu-west-1_Abc', Username: 'someone' }));
  return documents.send(new GetCommand({ TableName: 'Orders', Key: { id: '1' } }));
}
`;

// The delete is in a function no handler imports: bundling drops it, so it is no use.
const SHARED_CLIENTS = `import { DeleteCommand } from '@aws-sdk/lib-dynamodb';
export const documents = { send: async (command: unknown) => command };
export const users = { send: async (command: unknown) => command };
export async function purge() {
  return documents.send(new DeleteCommand({ TableName: 'Orders', Key: { id: '1' } }));
}
`;

export const ORDERS_TABLE_ARN = 'arn:aws:dynamodb:eu-west-1:123456789012:table/Orders';

export interface Fixture {
  readonly app: App;
  readonly stack: Stack;
  readonly fn: lambda.CfnFunction;
  readonly root: string;
  readonly outdir: string;
  report(): ComplianceReport;
  dispose(): void;
}

const LAMBDA_ACKNOWLEDGEMENTS = {
  'NIST.800.53.R5-LambdaDLQ':
    'The fixture function is only invoked synchronously through its function URL; a dead-letter queue would never hold a message.',
  'NIST.800.53.R5-LambdaInsideVPC':
    'The fixture function reaches only public AWS endpoints, so a VPC would add nothing to isolate.',
  'NIST.800.53.R5-LambdaConcurrency':
    'The account-level concurrency limit protects the fixture; a reservation would only cap it.',
};

export function fixtureApp(): Fixture {
  const root = mkdtempSync(join(tmpdir(), 'compliance-fixture-'));
  mkdirSync(join(root, 'lambdas', 'demo'), { recursive: true });
  mkdirSync(join(root, 'lambdas', 'shared'), { recursive: true });
  writeFileSync(join(root, 'lambdas', 'demo', 'handler.ts'), DEMO_HANDLER);
  writeFileSync(join(root, 'lambdas', 'shared', 'clients.ts'), SHARED_CLIENTS);
  const outdir = join(root, 'cdk.out');
  const app = new App({ outdir, context: { [PATH_METADATA_ENABLE_CONTEXT]: true } });
  const stack = new Stack(app, 'Fixture', { env: { region: 'eu-west-1' } });
  const role = new iam.CfnRole(stack, 'DemoRole', {
    description: 'Runs the demo function',
    assumeRolePolicyDocument: {
      Version: '2012-10-17',
      Statement: [{ Effect: 'Allow', Principal: { Service: 'lambda.amazonaws.com' }, Action: 'sts:AssumeRole' }],
    },
  });
  const fn = new lambda.CfnFunction(stack, 'DemoFunction', {
    code: { zipFile: 'export const handler = async () => 1;' },
    handler: 'index.handler',
    runtime: 'nodejs24.x',
    role: role.attrArn,
    environment: { variables: { POWERTOOLS_SERVICE_NAME: 'demo' } },
  });
  new iam.CfnManagedPolicy(stack, 'DemoPolicy', {
    roles: [role.ref],
    policyDocument: {
      Version: '2012-10-17',
      Statement: [
        { Sid: 'ReadOrders', Effect: 'Allow', Action: 'dynamodb:GetItem', Resource: ORDERS_TABLE_ARN },
        {
          Sid: 'ScanOrders',
          Effect: 'Allow',
          Action: 'dynamodb:Scan',
          Resource: ORDERS_TABLE_ARN,
          Condition: { StringEquals: { 'aws:PrincipalTag/team': 'data' } },
        },
        { Sid: 'ReadSelf', Effect: 'Allow', Action: 'lambda:GetFunction', Resource: fn.attrArn },
      ],
    },
  });
  const publicUrl = new lambda.CfnPermission(stack, 'PublicUrl', {
    action: 'lambda:InvokeFunctionUrl',
    functionName: fn.attrArn,
    principal: '*',
    functionUrlAuthType: 'NONE',
  });
  new lambda.CfnUrl(stack, 'DemoUrl', {
    authType: 'NONE',
    targetFunctionArn: fn.attrArn,
    cors: { allowOrigins: ['https://portal.example.com'], allowMethods: ['POST'] },
  });
  acknowledge(fn, LAMBDA_ACKNOWLEDGEMENTS);
  acknowledge(publicUrl, {
    'NIST.800.53.R5-LambdaFunctionPublicAccessProhibited':
      'The function URL is public by design and the handler verifies a bearer token on every request.',
  });
  addCompliancePacks(app, { product: 'Fixture product', root });
  return {
    app,
    stack,
    fn,
    root,
    outdir,
    report: () => JSON.parse(readFileSync(join(outdir, 'compliance', 'report.json'), 'utf8')) as ComplianceReport,
    dispose: () => rmSync(root, { recursive: true, force: true }),
  };
}

/** The fixture's template as `cdk synth` writes it. */
export const templateOf = (fixture: Fixture): Record<string, unknown> =>
  JSON.parse(readFileSync(join(fixture.outdir, 'Fixture.template.json'), 'utf8')) as Record<string, unknown>;

export interface ScratchApp {
  readonly app: App;
  dispose(): void;
}

/**
 * A scratch stack with the product's tables and a function running the handler `lambdas/<name>`
 * of this project, granted the given statements; the evidence pack is its only check.
 */
export function handlerScratch(name: string, statements: (data: PortalData) => iam.PolicyStatement[]): ScratchApp {
  const outdir = mkdtempSync(join(tmpdir(), 'over-grant-'));
  const app = new App({ outdir, context: { [PATH_METADATA_ENABLE_CONTEXT]: true } });
  const stack = new Stack(app, 'Scratch', { env: { region: 'eu-west-1' } });
  const data = new PortalData(stack, 'Data', { deletionProtection: false });
  const id = name.replace(/(?:^|-)(\w)/g, (_, letter: string) => letter.toUpperCase());
  const role = new iam.Role(stack, `${id}Role`, { assumedBy: new iam.ServicePrincipal('lambda.amazonaws.com') });
  const variables = Object.fromEntries(
    [...data.tables.values()].map(({ definition, table }) => [definition.envVar, table.tableName]),
  );
  new lambda.CfnFunction(stack, id, {
    code: { zipFile: 'export const handler = async () => 1;' },
    handler: 'index.handler',
    runtime: 'nodejs22.x',
    role: role.roleArn,
    environment: { variables: { POWERTOOLS_SERVICE_NAME: name, ...variables } },
  });
  new iam.ManagedPolicy(stack, `${id}Policy`, { roles: [role], statements: statements(data) });
  const root = fileURLToPath(new URL('../..', import.meta.url));
  Validations.of(app).addPlugins(new ComplianceReportPlugin(new NagResultLog(), { product: 'Scratch', root, outdir }));
  return { app, dispose: () => rmSync(outdir, { recursive: true, force: true }) };
}

/** {@link handlerScratch} with the embed handler. */
export const embedScratch = (statements: (data: PortalData) => iam.PolicyStatement[]): ScratchApp =>
  handlerScratch('embed', statements);

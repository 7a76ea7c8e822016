import { mkdir, rm } from 'node:fs/promises';
import { resolve } from 'node:path';
import { CognitoIdentityProviderClient } from '@aws-sdk/client-cognito-identity-provider';
import type { RuntimeConfig } from '#contracts/config.ts';
import type { SynthesizedDeployment } from './aws/deployment.ts';
import { localDeployment } from './aws/local-deployment.ts';
import { readTotpSecret, type CognitoEmulator } from '#emulators/cognito/index.ts';
import {
  DEFAULT_DATA_DIR,
  LOCAL_ACCOUNT_ID,
  LOCAL_CREDENTIALS,
  LOCAL_REGION,
  LOCAL_PRODUCT_NAME,
  QUICKSIGHT_NAMESPACE,
  stackFilePath,
  type StackInfo,
} from '#clients/local-stack.ts';
import { Closers } from './closers.ts';
import { LOCAL_MARKETING_SITE_URL, templateValues, type LocalEndpoints } from './environment.ts';
import { createFunctions, invokerOf, startFunctionUrls, type LocalFunctions } from './functions.ts';
import { startDeliverySchedule } from './schedules.ts';
import { loadProductSchema } from './graphql/schema.ts';
import { startGraphqlServer, type GraphqlServer } from './graphql/server.ts';
import { LocalIam } from './iam/policies.ts';
import { roleReads } from './quicksight-access.ts';
import { assertPortsFree, DEFAULT_PORT_BASE, portLayout, type PortLayout } from './ports.ts';
import { dashboardLink, SAMPLE_DASHBOARDS, type QuickSightEmulator } from '#emulators/quicksight/index.ts';
import { DEMO_ACCOUNTS } from './seed/demo-accounts.ts';
import { writeStackInfo } from './stack-file.ts';
import { seedIfNeeded } from './seed/seed.ts';
import { ensureWebBuilt, WEB_DIST } from './web-build.ts';
import { startWebServer, type WebServer } from './web-server.ts';
import { httpUrl } from '#emulators/shared/http.ts';
import {
  localSiteOrigin,
  type StartContext,
  type FunctionUrls,
  type PoolTriggerFunctions,
  type RunningSes,
  type RunningCognito,
  type RunningQuickSight,
  localIam,
  gateFor,
  startSes,
  startTables,
  startS3,
  startCognito,
  startQuickSight,
  localEndpoints,
} from './stack-services.ts';

export interface StackOptions {
  /** @default '.local' */
  readonly dataDir?: string;
  /** Wipe the data directory first. */
  readonly reset?: boolean;
  /** @default 4400 */
  readonly portBase?: number;
  /** @default '127.0.0.1' */
  readonly host?: string;
  /** Progress lines (start-up steps); the caller decides where they go. */
  readonly log?: (line: string) => void;
  /** Abandons start-up (Ctrl-C while starting): what was started is stopped and the promise rejects. */
  readonly signal?: AbortSignal;
}

export interface RunningLocalStack {
  readonly info: StackInfo;
  readonly dataDir: string;
  /** Stops every server, persists state and removes stack.json. Safe to call more than once. */
  close(): Promise<void>;
}

/**
 * Starts the whole portal on this machine: dynalite, the mail capture, local S3, the Cognito
 * and QuickSight emulators (each behind an IAM gate), every function of the synthesized CDK app
 * in its own execution environment, one HTTP adapter per function URL, the GraphQL server
 * and the SPA; seeds a new data directory and writes stack.json. Each step is a function below,
 * in the order they run.
 */
export async function startStack(options: StackOptions = {}): Promise<RunningLocalStack> {
  const dataDir = resolve(options.dataDir ?? DEFAULT_DATA_DIR);
  const host = options.host ?? '127.0.0.1';
  const ports = portLayout(options.portBase ?? DEFAULT_PORT_BASE);
  await prepareDataDir({ dataDir, host, ports, reset: options.reset ?? false });

  const closers = new Closers();
  const stack: StartContext = {
    dataDir,
    host,
    ports,
    region: LOCAL_REGION,
    siteOrigin: localSiteOrigin(ports.web),
    log: options.log ?? (() => undefined),
    closers,
    url: (port) => httpUrl(host, port),
    aborted: () => options.signal?.throwIfAborted(),
  };
  try {
    const { webBuild, synthesis } = buildAndSynthesize(stack, options.signal);
    const iam = localIam();
    const gate = gateFor(stack, iam);
    stack.log('Starting the mail capture and DynamoDB...');
    const ses = await startSes(stack, gate);
    stack.aborted();
    const dynamodbEndpoint = await startTables(stack, gate);
    stack.aborted();
    // The identity provider runs with the synthesized pool's settings.
    const deployment = await synthesis;
    stack.aborted();
    stack.log('Starting S3, the identity provider and QuickSight...');
    const s3 = await startS3(stack, gate, deployment);
    stack.aborted();
    const reads = roleReads(iam, () => s3.endpoint, stack.region);
    closers.add(async () => reads.close());
    // The pool invokes its triggers as Lambda does; the functions exist once the workers start.
    const triggers: PoolTriggerFunctions = {};
    const cognito = await startCognito(stack, gate, deployment, ses.mail, triggers);
    stack.aborted();
    const quicksight = await startQuickSight(stack, gate, deployment, reads);
    stack.aborted();

    stack.log('Starting the functions and the GraphQL API...');
    const endpoints = localEndpoints(stack, { cognito, dynamodbEndpoint, quicksight, ses, s3 });
    reads.addRoles(deployment, templateValues(deployment, endpoints, 'placeholder'));
    const workers = await startFunctionWorkers(stack, deployment, endpoints, iam, triggers);
    stack.aborted();
    const graphql = await startGraphql(stack, deployment, workers.functions, cognito.emulator);
    stack.aborted();

    await seed(stack, cognito, workers.functionUrls, quicksight.emulator);
    stack.aborted();
    startDeliverySchedule({
      deliveries: workers.functions.deliveries,
      region: stack.region,
      stackName: deployment.stackName,
      log: stack.log,
      closers: stack.closers,
    });
    await webBuild;
    stack.log('Starting the web server...');
    await startWeb(stack, deployment, {
      cognito,
      graphql,
      functionUrls: workers.functionUrls,
      quicksight: quicksight.emulator,
    });
    const info = await describeStack(stack, {
      cognito,
      graphql,
      functionUrls: workers.functionUrls,
      quicksight,
      dynamodbEndpoint,
      ses,
      credentials: workers.credentials,
    });
    await writeStackFile(stack, info);

    let closing: Promise<void> | undefined;
    return { info, dataDir, close: () => (closing ??= closers.closeAll()) };
  } catch (error) {
    await closers.closeAll().catch(() => undefined);
    throw error;
  }
}

/** Refuses to start over a running stack, wipes the data directory when asked and removes an old stack.json. */
async function prepareDataDir(options: {
  dataDir: string;
  host: string;
  ports: PortLayout;
  reset: boolean;
}): Promise<void> {
  await assertPortsFree(options.ports, options.host);
  if (options.reset) await rm(options.dataDir, { recursive: true, force: true });
  await mkdir(options.dataDir, { recursive: true });
  await rm(stackFilePath(options.dataDir), { force: true });
}

/**
 * Reads the template: synthesizes the CDK app (or reuses the synthesis of the same sources),
 * and builds the SPA. They are the slowest steps and need none of the services: they run
 * meanwhile, and the steps that need them wait for them.
 */
function buildAndSynthesize(
  stack: StartContext,
  signal: AbortSignal | undefined,
): { webBuild: Promise<unknown>; synthesis: Promise<SynthesizedDeployment> } {
  const stopBuild = new AbortController();
  stack.closers.add(async () => stopBuild.abort());
  const buildSignal = signal ? AbortSignal.any([signal, stopBuild.signal]) : stopBuild.signal;
  const webBuild = ensureWebBuilt({ log: stack.log, signal: buildSignal });
  webBuild.catch(() => undefined);
  const synthesis = localDeployment(stack.log);
  synthesis.catch(() => undefined);
  return { webBuild, synthesis };
}

/**
 * Every function of the template in its own worker, with its environment and credentials (the
 * pool's triggers now reach theirs), and an HTTP adapter for each function URL.
 */
async function startFunctionWorkers(
  stack: StartContext,
  deployment: SynthesizedDeployment,
  endpoints: LocalEndpoints,
  iam: LocalIam,
  triggers: PoolTriggerFunctions,
): Promise<LocalFunctions & { functionUrls: FunctionUrls }> {
  const { functions, credentials } = createFunctions(deployment, endpoints, iam, stack.closers);
  triggers.postConfirmation = functions.postConfirmation;
  triggers.preTokenGeneration = functions.preTokenGeneration;
  const functionUrls = await startFunctionUrls({
    deployment,
    functions,
    host: stack.host,
    ports: stack.ports,
    region: stack.region,
    values: templateValues(deployment, endpoints, 'error'),
    siteOrigin: stack.siteOrigin,
    closers: stack.closers,
  });
  return { functions, credentials, functionUrls };
}

/** The GraphQL API: the product's schema, resolved by the GraphQL function, authorized by the pool's tokens. */
async function startGraphql(
  stack: StartContext,
  deployment: SynthesizedDeployment,
  functions: LocalFunctions['functions'],
  cognito: CognitoEmulator,
): Promise<GraphqlServer> {
  const graphql = await startGraphqlServer({
    schema: await loadProductSchema(),
    handler: invokerOf(functions.graphql),
    userPoolId: cognito.userPoolId,
    clientId: cognito.clientId,
    jwks: cognito.jwks,
    host: stack.host,
    port: stack.ports.graphql,
    region: stack.region,
    timeoutMs: deployment.functions.graphql.timeoutSeconds * 1000,
  });
  stack.closers.add(() => graphql.close());
  return graphql;
}

/** Seeds a new data directory: the demo accounts, the sample dashboards and their assignments. */
async function seed(
  stack: StartContext,
  cognito: RunningCognito,
  functionUrls: FunctionUrls,
  quicksight: QuickSightEmulator,
): Promise<void> {
  const cognitoClient = new CognitoIdentityProviderClient({
    endpoint: cognito.endpoint,
    region: stack.region,
    credentials: LOCAL_CREDENTIALS,
  });
  stack.closers.add(async () => cognitoClient.destroy());
  await seedIfNeeded({
    dataDir: stack.dataDir,
    pool: {
      client: cognitoClient,
      endpoint: cognito.endpoint,
      userPoolId: cognito.emulator.userPoolId,
      clientId: cognito.emulator.clientId,
      readTotpSecret: (email) => readTotpSecret(cognito.dataDir, email),
    },
    quicksightAdminUrl: functionUrls.quicksightAdmin,
    dashboards: SAMPLE_DASHBOARDS,
    linkOf: (dashboardId) => dashboardLink(quicksight.pagesUrl, dashboardId),
    log: stack.log,
  });
}

/** The SPA with the runtime configuration of the local stack and a CSP that admits its addresses. */
async function startWeb(
  stack: StartContext,
  deployment: SynthesizedDeployment,
  running: {
    cognito: RunningCognito;
    graphql: GraphqlServer;
    functionUrls: FunctionUrls;
    quicksight: QuickSightEmulator;
  },
): Promise<WebServer> {
  const { cognito, graphql, functionUrls } = running;
  const config: RuntimeConfig = {
    productName: LOCAL_PRODUCT_NAME,
    region: stack.region,
    userPoolId: cognito.emulator.userPoolId,
    userPoolClientId: cognito.emulator.clientId,
    cognitoEndpoint: cognito.endpoint,
    graphqlUrl: graphql.url,
    functions: functionUrls,
    marketingSiteUrl: LOCAL_MARKETING_SITE_URL,
    // The deployment defaults, as the synthesized app local mode runs uses them.
    session: deployment.session,
    rememberDevices: deployment.userPool.deviceTracking !== undefined,
    passkeys: deployment.userPool.allowedFirstAuthFactors.includes('WEB_AUTHN'),
  };
  const originOf = (address: string) => new URL(address).origin;
  const web = await startWebServer({
    host: stack.host,
    port: stack.ports.web,
    distDir: WEB_DIST,
    config,
    csp: {
      connectSrc: [cognito.endpoint, graphql.url, ...Object.values(functionUrls)].map(originOf),
      frameSrc: [originOf(running.quicksight.embedUrl)],
    },
  });
  stack.closers.add(() => web.close());
  return web;
}

/**
 * stack.json's content: every address, the demo accounts with their authenticator secrets and the functions'
 * credentials.
 */
async function describeStack(
  stack: StartContext,
  running: {
    cognito: RunningCognito;
    graphql: GraphqlServer;
    functionUrls: FunctionUrls;
    quicksight: RunningQuickSight;
    dynamodbEndpoint: string;
    ses: RunningSes;
    credentials: LocalFunctions['credentials'];
  },
): Promise<StackInfo> {
  const { cognito, quicksight, ses } = running;
  const demoAccount = async (account: (typeof DEMO_ACCOUNTS)[keyof typeof DEMO_ACCOUNTS]) => {
    const totpSecret = await readTotpSecret(cognito.dataDir, account.email);
    if (!totpSecret)
      throw new Error(`${account.email} has no authenticator; start with --reset to seed the demo accounts again`);
    return { email: account.email, password: account.password, totpSecret };
  };
  return {
    webUrl: stack.siteOrigin,
    region: stack.region,
    cognito: {
      endpoint: cognito.endpoint,
      userPoolId: cognito.emulator.userPoolId,
      clientId: cognito.emulator.clientId,
      jwksUrl: `${cognito.endpoint}/${cognito.emulator.userPoolId}/.well-known/jwks.json`,
    },
    graphqlUrl: running.graphql.url,
    functions: running.functionUrls,
    quicksight: {
      endpoint: quicksight.endpoint,
      accountId: LOCAL_ACCOUNT_ID,
      namespace: QUICKSIGHT_NAMESPACE,
      embedPagesUrl: `${quicksight.emulator.embedUrl}/`,
    },
    dynamodb: { endpoint: running.dynamodbEndpoint },
    mail: { inboxUrl: `${ses.endpoint}/`, apiUrl: ses.mail.apiUrl },
    demo: {
      admin: await demoAccount(DEMO_ACCOUNTS.admin),
      user: await demoAccount(DEMO_ACCOUNTS.user),
      owner: await demoAccount(DEMO_ACCOUNTS.owner),
    },
    functionCredentials: running.credentials,
  };
}

/** Writes stack.json (removed again when the stack stops): tests, benches and tools read it. */
async function writeStackFile(stack: StartContext, info: StackInfo): Promise<void> {
  const stackFile = stackFilePath(stack.dataDir);
  await writeStackInfo(stack.dataDir, info);
  stack.closers.add(() => rm(stackFile, { force: true }));
}

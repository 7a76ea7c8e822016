import { mkdir, rm } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { CognitoIdentityProviderClient } from '@aws-sdk/client-cognito-identity-provider';
import type { RuntimeConfig } from '#contracts/config.ts';
import { ENV } from '#contracts/env.ts';
import { USER_POOL_CLIENT } from '#contracts/user-pool-client.ts';
import type { SynthesizedDeployment, UrlFunctionKey } from './aws/deployment.ts';
import { localDeployment } from './aws/local-deployment.ts';
import { localResourceNames } from './aws/resolve.ts';
import { readTotpSecret, startCognitoEmulator, type CognitoEmulator } from '#emulators/cognito/index.ts';
import { cognitoDataDir, quicksightDataDir } from './data-dir.ts';
import {
  DEFAULT_DATA_DIR,
  LOCAL_ACCOUNT_ID,
  LOCAL_CREDENTIALS,
  LOCAL_REGION,
  LOCAL_PRODUCT_NAME,
  QUICKSIGHT_NAMESPACE,
  SUPPORT_FROM_ADDRESS,
  SUPPORT_TO_ADDRESS,
  stackFilePath,
  type StackInfo,
} from '#clients/local-stack.ts';
import { startDynamoDb } from './dynamodb.ts';
import { Closers } from './closers.ts';
import { LOCAL_MARKETING_SITE_URL, invitationTemplate, templateValues, type LocalEndpoints } from './environment.ts';
import { createFunctions, invokerOf, startFunctionUrls, type LocalFunctions } from './functions.ts';
import { loadProductSchema } from './graphql/schema.ts';
import { startGraphqlServer, type GraphqlServer } from './graphql/server.ts';
import { startIamGate } from './iam/gate.ts';
import { LocalIam } from './iam/policies.ts';
import type { LocalFunction } from './lambda/runtime.ts';
import { cognitoRules, dynamodbRules, quicksightRules, s3Rules, sesRules } from './iam/services.ts';
import { startMailCapture, type MailCapture } from '#emulators/ses/capture.ts';
import { s3DataDir, startS3StandIn, type S3StandIn } from '#emulators/s3/index.ts';
import { ensureAuthorsGroup, roleReads, type RoleReads } from './quicksight-access.ts';
import { IdentityStore } from '#emulators/ses/identities.ts';
import { cognitoMailSender } from '#emulators/ses/send.ts';
import { assertPortsFree, DEFAULT_PORT_BASE, portLayout, type PortLayout } from './ports.ts';
import {
  dashboardLink,
  localTlsMaterial,
  SAMPLE_DASHBOARDS,
  startQuickSightEmulator,
  type QuickSightEmulator,
} from '#emulators/quicksight/index.ts';
import { DEMO_ACCOUNTS } from './seed/demo-accounts.ts';
import { demoSecretKeeper, writeStackInfo } from './stack-file.ts';
import { seedIfNeeded } from './seed/seed.ts';
import { ensureWebBuilt, WEB_DIST } from './web-build.ts';
import { startWebServer, type WebServer } from './web-server.ts';
import { httpUrl } from '#emulators/shared/http.ts';

/**
 * The portal's origin. Servers listen on 127.0.0.1, but QuickSight accepts no IP address in
 * AllowedDomains (only https, or http for localhost), so the site is addressed as localhost.
 */
const localSiteOrigin = (port: number): string => `http://localhost:${port}`;

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
 * The rules dataset the portal keeps (the QuickSight management function's
 * COMPANY_RULES_DATA_SET_ID in the template): the company-scoped sample datasets apply it.
 */
function rulesDataSetIdOf(deployment: SynthesizedDeployment): string {
  const value = deployment.functions.quicksightAdmin.environment[ENV.companyRulesDataSetId];
  if (typeof value !== 'string' || value.length === 0) {
    throw new Error(`The template gives the QuickSight management function no literal ${ENV.companyRulesDataSetId}`);
  }
  return value;
}

/**
 * Local SES's verified identities: the support sender and recipient, as the deployment steps (docs/deploy.md) verify
 * them.
 */
const VERIFIED_SES_IDENTITIES = [SUPPORT_FROM_ADDRESS, SUPPORT_TO_ADDRESS];

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

/** What every start-up step shares: where the stack listens and writes, and what stops it. */
interface StartContext {
  readonly dataDir: string;
  readonly host: string;
  readonly ports: PortLayout;
  readonly region: string;
  /** The local portal's origin: where the template has the CDN's. */
  readonly siteOrigin: string;
  readonly log: (line: string) => void;
  /** What was started, stopped in reverse order on close or on a failed start. */
  readonly closers: Closers;
  /** The address of a port on the stack's host. */
  url(port: number): string;
  /** Throws once start-up is abandoned (Ctrl-C while starting). */
  aborted(): void;
}

/** Puts an IAM gate in front of an upstream on a port of the layout; resolves with the gate's address. */
type Gate = (rules: Parameters<typeof startIamGate>[0]['rules'], upstream: string, port: number) => Promise<string>;

/** The address of each function URL. */
type FunctionUrls = Record<UrlFunctionKey, string>;

/** The pool's triggers, filled in once the function workers run. */
type PoolTriggerFunctions = { postConfirmation?: LocalFunction; preTokenGeneration?: LocalFunction };

interface RunningSes {
  readonly mail: MailCapture;
  /** SES behind its gate. */
  readonly endpoint: string;
}

interface RunningS3 {
  readonly standIn: S3StandIn;
  readonly endpoint: string;
}

interface RunningCognito {
  readonly emulator: CognitoEmulator;
  readonly endpoint: string;
  /** The emulator's folder in the data directory. */
  readonly dataDir: string;
}

interface RunningQuickSight {
  readonly emulator: QuickSightEmulator;
  readonly endpoint: string;
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
 * The local account's IAM: every local AWS endpoint checks signatures and policies; the
 * administrator (local mode itself) may do anything, each function what its role allows.
 */
function localIam(): LocalIam {
  const iam = new LocalIam(LOCAL_ACCOUNT_ID);
  iam.add({
    name: 'administrator',
    arn: `arn:aws:iam::${LOCAL_ACCOUNT_ID}:user/local-administrator`,
    ...LOCAL_CREDENTIALS,
  });
  return iam;
}

function gateFor(stack: StartContext, iam: LocalIam): Gate {
  return async (rules, upstream, port) => {
    const started = await startIamGate({ rules, iam, upstream, host: stack.host, port });
    stack.closers.add(() => started.close());
    return started.url;
  };
}

/** SES: the mail capture with the sandbox's verified identities, behind its gate. */
async function startSes(stack: StartContext, gate: Gate): Promise<RunningSes> {
  const sesIdentities = new IdentityStore();
  sesIdentities.verify(VERIFIED_SES_IDENTITIES);
  const mail = await startMailCapture({
    host: stack.host,
    port: 0,
    apiPort: stack.ports.mailApi,
    dataDir: stack.dataDir,
    verifiedIdentities: VERIFIED_SES_IDENTITIES,
  });
  stack.closers.add(() => mail.close());
  const endpoint = await gate(
    sesRules({ sandbox: true, identityOf: (address) => sesIdentities.identityCovering(address) ?? address }),
    mail.sesEndpoint,
    stack.ports.mail,
  );
  return { mail, endpoint };
}

/** DynamoDB (dynalite) with the product's tables, behind its gate. */
async function startTables(stack: StartContext, gate: Gate): Promise<string> {
  const dynamodb = await startDynamoDb({
    host: stack.host,
    port: 0,
    dataDir: stack.dataDir,
    region: stack.region,
    credentials: LOCAL_CREDENTIALS,
  });
  stack.closers.add(() => dynamodb.close());
  return gate(dynamodbRules, dynamodb.endpoint, stack.ports.dynamodb);
}

/** S3 with the template's buckets (the row-level-security rules), named as templateValues names them. */
async function startS3(stack: StartContext, gate: Gate, deployment: SynthesizedDeployment): Promise<RunningS3> {
  const standIn = await startS3StandIn({
    host: stack.host,
    port: 0,
    dataDir: s3DataDir(stack.dataDir),
    buckets: [localResourceNames(deployment.stackName).companyRulesBucket],
  });
  stack.closers.add(() => standIn.close());
  return { standIn, endpoint: await gate(s3Rules, standIn.url, stack.ports.s3) };
}

/**
 * The Cognito emulator with the synthesized pool's settings and groups and the app client's
 * definition, sending its mail through SES, behind its gate.
 */
async function startCognito(
  stack: StartContext,
  gate: Gate,
  deployment: SynthesizedDeployment,
  mail: MailCapture,
  triggers: PoolTriggerFunctions,
): Promise<RunningCognito> {
  const sendEmail = cognitoMailSender(mail, { region: stack.region, credentials: LOCAL_CREDENTIALS });
  stack.closers.add(async () => sendEmail.destroy());
  const dataDir = cognitoDataDir(stack.dataDir);
  const pool = deployment.userPool;
  const emulator = await startCognitoEmulator({
    host: stack.host,
    port: 0,
    publicUrl: stack.url(stack.ports.cognito),
    dataDir,
    region: stack.region,
    // The app client's definition, which the CDK app client is built from too.
    client: USER_POOL_CLIENT,
    groups: pool.groups,
    sendEmail: sendEmail.send,
    webUrl: stack.siteOrigin,
    allowSelfSignUp: pool.allowSelfSignUp,
    ...(pool.deviceTracking && { deviceTracking: pool.deviceTracking }),
    accessTokenMinutes: pool.accessTokenMinutes,
    idTokenMinutes: pool.idTokenMinutes,
    refreshTokenDays: pool.refreshTokenDays,
    temporaryPasswordValidityDays: pool.temporaryPasswordValidityDays,
    attributesRequireVerificationBeforeUpdate: pool.attributesRequireVerificationBeforeUpdate,
    invitation: invitationTemplate(deployment, stack.region, stack.siteOrigin),
    // stack.json gives the demo accounts' secrets: a replaced authenticator replaces its secret there too.
    onAuthenticatorChanged: demoSecretKeeper(stack.dataDir, stack.log),
    triggers: {
      postConfirmation: async (event) => {
        if (!triggers.postConfirmation) throw new Error('The post-confirmation function is not running yet');
        return triggers.postConfirmation.invoke(event);
      },
      preTokenGeneration: async (event) => {
        if (!triggers.preTokenGeneration) throw new Error('The pre token generation function is not running yet');
        return triggers.preTokenGeneration.invoke(event);
      },
    },
  });
  stack.closers.add(() => emulator.close());
  return { emulator, dataDir, endpoint: await gate(cognitoRules, emulator.url, stack.ports.cognito) };
}

/**
 * The QuickSight emulator with its embed pages over https, reading data sources from local S3
 * as their roles, behind its gate; with the group of authors the rules are granted to.
 */
async function startQuickSight(
  stack: StartContext,
  gate: Gate,
  deployment: SynthesizedDeployment,
  reads: RoleReads,
): Promise<RunningQuickSight> {
  const dataDir = quicksightDataDir(stack.dataDir);
  const emulator = await startQuickSightEmulator({
    host: stack.host,
    port: 0,
    pageHost: 'localhost',
    pagesPort: stack.ports.quicksight,
    dataDir,
    accountId: LOCAL_ACCOUNT_ID,
    region: stack.region,
    // Data sources and ingestions read the manifest and files from local S3 with the data source's role.
    readObject: reads.readObject,
    listObjects: reads.listObjects,
    rowLevelSecurity: { rulesDataSetId: rulesDataSetIdOf(deployment) },
    embedPages: { port: stack.ports.quicksightEmbed, tls: await localTlsMaterial(join(dataDir, 'tls')) },
  });
  stack.closers.add(() => emulator.close());
  const endpoint = await gate(quicksightRules, emulator.url, stack.ports.quicksight);
  await ensureAuthorsGroup(endpoint, stack.region);
  return { emulator, endpoint };
}

/**
 * The local values the template's references resolve to: the emulators' addresses behind their gates and the pool's
 * ids.
 */
function localEndpoints(
  stack: StartContext,
  running: {
    cognito: RunningCognito;
    dynamodbEndpoint: string;
    quicksight: RunningQuickSight;
    ses: RunningSes;
    s3: RunningS3;
  },
): LocalEndpoints {
  const { emulator } = running.cognito;
  return {
    region: stack.region,
    siteOrigin: stack.siteOrigin,
    cognito: {
      endpoint: running.cognito.endpoint,
      userPoolId: emulator.userPoolId,
      clientId: emulator.clientId,
      jwks: emulator.jwks,
    },
    dynamodbEndpoint: running.dynamodbEndpoint,
    quicksightEndpoint: running.quicksight.endpoint,
    sesEndpoint: running.ses.endpoint,
    s3Endpoint: running.s3.endpoint,
  };
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

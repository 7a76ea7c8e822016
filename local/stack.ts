import { mkdir, rename, rm, writeFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import { CognitoIdentityProviderClient } from '@aws-sdk/client-cognito-identity-provider';
import { ENV } from '../contracts/env.ts';
import type { RuntimeConfig } from '../contracts/config.ts';
import { readTotpSecret, startCognitoEmulator } from './cognito/index.ts';
import { cognitoDataDir, DEFAULT_DATA_DIR, quicksightDataDir } from './data-dir.ts';
import { startDynamoDb } from './dynamodb.ts';
import { Closers } from './closers.ts';
import { handlerEnvironment, LOCAL_ACCOUNT_ID, LOCAL_CREDENTIALS, LOCAL_MARKETING_SITE_URL, LOCAL_PRODUCT_NAME, QUICKSIGHT_NAMESPACE } from './environment.ts';
import { GRAPHQL_RESOLVER_TIMEOUT_MS, startFunctionUrls } from './functions.ts';
import { loadProductSchema } from './graphql/schema.ts';
import { startGraphqlServer } from './graphql/server.ts';
import { invokeTrigger, loadHandler } from './handlers.ts';
import { startMailCapture } from './mail/capture.ts';
import { mailSender } from './mail/send.ts';
import { assertPortsFree, DEFAULT_PORT_BASE, portLayout } from './ports.ts';
import { dashboardLink, SAMPLE_DASHBOARDS, startQuickSightEmulator } from './quicksight/index.ts';
import { DEMO_ACCOUNTS } from './seed/demo-accounts.ts';
import { seedIfNeeded } from './seed/seed.ts';
import { stackFilePath, type StackInfo } from './stack-info.ts';
import { ensureWebBuilt, WEB_DIST } from './web-build.ts';
import { startWebServer } from './web-server.ts';
import { httpUrl } from './http.ts';

export const LOCAL_REGION = 'us-east-2';

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

async function writeAtomically(path: string, content: string): Promise<void> {
  const partial = `${path}.partial`;
  await writeFile(partial, content, { mode: 0o600 });
  await rename(partial, path);
}

/**
 * Starts the whole portal on this machine: dynalite, the mail capture, the Cognito and
 * QuickSight emulators, one HTTP adapter per function URL, the GraphQL server and the SPA,
 * with the product's handler code; seeds a new data directory and writes stack.json.
 */
export async function startStack(options: StackOptions = {}): Promise<RunningLocalStack> {
  const dataDir = resolve(options.dataDir ?? DEFAULT_DATA_DIR);
  const host = options.host ?? '127.0.0.1';
  const ports = portLayout(options.portBase ?? DEFAULT_PORT_BASE);
  const log = options.log ?? (() => undefined);
  const region = LOCAL_REGION;
  const url = (port: number) => httpUrl(host, port);
  const webUrl = url(ports.web);

  await assertPortsFree(ports, host);
  if (options.reset) await rm(dataDir, { recursive: true, force: true });
  await mkdir(dataDir, { recursive: true });
  await rm(stackFilePath(dataDir), { force: true });

  const closers = new Closers();
  const aborted = () => options.signal?.throwIfAborted();
  try {
    // The build is the slowest step and needs none of the services: it runs meanwhile.
    const stopBuild = new AbortController();
    closers.add(async () => stopBuild.abort());
    const buildSignal = options.signal ? AbortSignal.any([options.signal, stopBuild.signal]) : stopBuild.signal;
    const webBuild = ensureWebBuilt({ log, signal: buildSignal });
    webBuild.catch(() => undefined);

    const mail = await startMailCapture({ host, port: ports.mail, apiPort: ports.mailApi, dataDir });
    closers.add(() => mail.close());
    aborted();
    const dynamodb = await startDynamoDb({ host, port: ports.dynamodb, dataDir, region, credentials: LOCAL_CREDENTIALS });
    closers.add(() => dynamodb.close());
    aborted();

    const sendEmail = mailSender({ endpoint: mail.sesEndpoint, region, credentials: LOCAL_CREDENTIALS });
    closers.add(async () => sendEmail.destroy());
    const cognitoDir = cognitoDataDir(dataDir);
    const cognito = await startCognitoEmulator({
      host,
      port: ports.cognito,
      dataDir: cognitoDir,
      region,
      sendEmail: sendEmail.send,
      webUrl,
      // Loaded on first use, by when the handlers' environment is set.
      triggers: { postConfirmation: (event) => invokeTrigger('post-confirmation', event, region) },
    });
    closers.add(() => cognito.close());
    aborted();
    const quicksight = await startQuickSightEmulator({ host, port: ports.quicksight, dataDir: quicksightDataDir(dataDir), accountId: LOCAL_ACCOUNT_ID, region });
    closers.add(() => quicksight.close());
    aborted();

    // Handlers read their configuration when their module loads: set it first.
    const environment = handlerEnvironment({
      region,
      webUrl,
      cognito: { endpoint: cognito.url, userPoolId: cognito.userPoolId, clientId: cognito.clientId, jwks: cognito.jwks },
      dynamodbEndpoint: dynamodb.endpoint,
      quicksightEndpoint: quicksight.url,
      sesEndpoint: mail.sesEndpoint,
    });
    Object.assign(process.env, environment, { [ENV.logLevel]: process.env[ENV.logLevel] ?? environment[ENV.logLevel] });

    const functionUrls = await startFunctionUrls({ host, ports, region, allowedOrigins: [webUrl], closers });
    aborted();

    const graphql = await startGraphqlServer({
      schema: await loadProductSchema(),
      handler: await loadHandler('graphql'),
      userPoolId: cognito.userPoolId,
      clientId: cognito.clientId,
      jwks: cognito.jwks,
      host,
      port: ports.graphql,
      region,
      timeoutMs: GRAPHQL_RESOLVER_TIMEOUT_MS,
    });
    closers.add(() => graphql.close());
    aborted();

    const cognitoClient = new CognitoIdentityProviderClient({ endpoint: cognito.url, region, credentials: LOCAL_CREDENTIALS });
    closers.add(async () => cognitoClient.destroy());
    const secretOf = (email: string) => readTotpSecret(cognitoDir, email);
    await seedIfNeeded({
      dataDir,
      pool: { client: cognitoClient, userPoolId: cognito.userPoolId, clientId: cognito.clientId, readTotpSecret: secretOf },
      quicksightAdminUrl: functionUrls.quicksightAdmin,
      dashboards: SAMPLE_DASHBOARDS,
      linkOf: (dashboardId) => dashboardLink(quicksight.url, dashboardId),
      log,
    });

    aborted();
    await webBuild;
    const config: RuntimeConfig = {
      productName: LOCAL_PRODUCT_NAME,
      region,
      userPoolId: cognito.userPoolId,
      userPoolClientId: cognito.clientId,
      cognitoEndpoint: cognito.url,
      graphqlUrl: graphql.url,
      functions: functionUrls,
      marketingSiteUrl: LOCAL_MARKETING_SITE_URL,
    };
    const originOf = (address: string) => new URL(address).origin;
    const web = await startWebServer({
      host,
      port: ports.web,
      distDir: WEB_DIST,
      config,
      csp: {
        connectSrc: [cognito.url, graphql.url, ...Object.values(functionUrls)].map(originOf),
        frameSrc: [originOf(quicksight.url)],
      },
    });
    closers.add(() => web.close());

    const demoAccount = async (account: (typeof DEMO_ACCOUNTS)[keyof typeof DEMO_ACCOUNTS]) => {
      const totpSecret = await secretOf(account.email);
      if (!totpSecret) throw new Error(`${account.email} has no authenticator; start with --reset to seed the demo accounts again`);
      return { email: account.email, password: account.password, totpSecret };
    };
    const info: StackInfo = {
      webUrl: web.url,
      region,
      cognito: {
        endpoint: cognito.url,
        userPoolId: cognito.userPoolId,
        clientId: cognito.clientId,
        jwksUrl: `${cognito.url}/${cognito.userPoolId}/.well-known/jwks.json`,
      },
      graphqlUrl: graphql.url,
      functions: functionUrls,
      quicksight: { endpoint: quicksight.url, accountId: LOCAL_ACCOUNT_ID, namespace: QUICKSIGHT_NAMESPACE },
      dynamodb: { endpoint: dynamodb.endpoint },
      mail: { inboxUrl: mail.inboxUrl, apiUrl: mail.apiUrl },
      demo: { admin: await demoAccount(DEMO_ACCOUNTS.admin), user: await demoAccount(DEMO_ACCOUNTS.user) },
    };
    const stackFile = stackFilePath(dataDir);
    await writeAtomically(stackFile, `${JSON.stringify(info, null, 2)}\n`);
    closers.add(() => rm(stackFile, { force: true }));

    let closing: Promise<void> | undefined;
    return { info, dataDir, close: () => (closing ??= closers.closeAll()) };
  } catch (error) {
    await closers.closeAll().catch(() => undefined);
    throw error;
  }
}

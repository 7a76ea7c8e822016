import { mkdir, rename, rm, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { CognitoIdentityProviderClient } from '@aws-sdk/client-cognito-identity-provider';
import type { RuntimeConfig } from '../contracts/config.ts';
import { ENV } from '../contracts/env.ts';
import { USER_POOL_CLIENT } from '../contracts/user-pool-client.ts';
import type { SynthesizedDeployment } from './aws/deployment.ts';
import { localDeployment } from './aws/local-deployment.ts';
import { localResourceNames } from './aws/resolve.ts';
import { readTotpSecret, startCognitoEmulator } from './emulators/cognito/index.ts';
import { cognitoDataDir, DEFAULT_DATA_DIR, quicksightDataDir } from './data-dir.ts';
import { startDynamoDb } from './dynamodb.ts';
import { Closers } from './closers.ts';
import {
  LOCAL_ACCOUNT_ID,
  LOCAL_CREDENTIALS,
  LOCAL_REGION,
  LOCAL_MARKETING_SITE_URL,
  LOCAL_PRODUCT_NAME,
  QUICKSIGHT_NAMESPACE,
  SUPPORT_FROM_ADDRESS,
  SUPPORT_TO_ADDRESS,
  invitationTemplate,
  templateValues,
  type LocalEndpoints,
} from './environment.ts';
import { createFunctions, invokerOf, startFunctionUrls } from './functions.ts';
import { loadProductSchema } from './graphql/schema.ts';
import { startGraphqlServer } from './graphql/server.ts';
import { startIamGate } from './iam/gate.ts';
import { LocalIam } from './iam/policies.ts';
import type { LocalFunction } from './lambda/runtime.ts';
import { cognitoRules, dynamodbRules, quicksightRules, s3Rules, sesRules } from './iam/services.ts';
import { startMailCapture } from './emulators/ses/capture.ts';
import { s3DataDir, startS3StandIn } from './emulators/s3/index.ts';
import { IdentityStore } from './emulators/ses/identities.ts';
import { cognitoMailSender } from './emulators/ses/send.ts';
import { assertPortsFree, DEFAULT_PORT_BASE, portLayout } from './ports.ts';
import { dashboardLink, localTlsMaterial, SAMPLE_DASHBOARDS, startQuickSightEmulator } from './emulators/quicksight/index.ts';
import { DEMO_ACCOUNTS } from './seed/demo-accounts.ts';
import { seedIfNeeded } from './seed/seed.ts';
import { stackFilePath, type StackInfo } from './stack-info.ts';
import { ensureWebBuilt, WEB_DIST } from './web-build.ts';
import { startWebServer } from './web-server.ts';
import { httpUrl } from './emulators/shared/http.ts';


/**
 * The portal's origin. Servers listen on 127.0.0.1, but QuickSight accepts no IP address in
 * AllowedDomains (only https, or http for localhost), so the site is addressed as localhost.
 */
export const localSiteOrigin = (port: number): string => `http://localhost:${port}`;

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
 * The rules dataset the portal keeps (the QuickSight management function's
 * COMPANY_RULES_DATA_SET_ID in the template): the company-scoped sample datasets apply it.
 */
export function rulesDataSetIdOf(deployment: SynthesizedDeployment): string {
  const value = deployment.functions.quicksightAdmin.environment[ENV.companyRulesDataSetId];
  if (typeof value !== 'string' || value.length === 0) {
    throw new Error(`The template gives the QuickSight management function no literal ${ENV.companyRulesDataSetId}`);
  }
  return value;
}

/** The groups a new local pool starts with. */
const POOL_GROUPS = [
  { name: 'Admins', precedence: 0, description: 'Administrators of the portal' },
  { name: 'Users', precedence: 1, description: 'Users of the portal' },
];

/** Local SES's verified identities: the support sender and recipient, as the deployment steps (docs/deploy.md) verify them. */
const VERIFIED_SES_IDENTITIES = [SUPPORT_FROM_ADDRESS, SUPPORT_TO_ADDRESS];

/**
 * Starts the whole portal on this machine: dynalite, the mail capture, local S3, the Cognito
 * and QuickSight emulators (each behind an IAM gate), every function of the synthesized CDK app
 * in its own execution environment, one HTTP adapter per function URL, the GraphQL server
 * and the SPA; seeds a new data directory and writes stack.json.
 */
export async function startStack(options: StackOptions = {}): Promise<RunningLocalStack> {
  const dataDir = resolve(options.dataDir ?? DEFAULT_DATA_DIR);
  const host = options.host ?? '127.0.0.1';
  const ports = portLayout(options.portBase ?? DEFAULT_PORT_BASE);
  const log = options.log ?? (() => undefined);
  const region = LOCAL_REGION;
  const url = (port: number) => httpUrl(host, port);
  const siteOrigin = localSiteOrigin(ports.web);

  await assertPortsFree(ports, host);
  if (options.reset) await rm(dataDir, { recursive: true, force: true });
  await mkdir(dataDir, { recursive: true });
  await rm(stackFilePath(dataDir), { force: true });

  const closers = new Closers();
  const aborted = () => options.signal?.throwIfAborted();
  try {
    // The build and the synthesis are the slowest steps and need none of the services: they run meanwhile.
    const stopBuild = new AbortController();
    closers.add(async () => stopBuild.abort());
    const buildSignal = options.signal ? AbortSignal.any([options.signal, stopBuild.signal]) : stopBuild.signal;
    const webBuild = ensureWebBuilt({ log, signal: buildSignal });
    webBuild.catch(() => undefined);
    const synthesis = localDeployment(log);
    synthesis.catch(() => undefined);

    // Every local AWS endpoint checks signatures and policies: the administrator (local mode
    // itself) may do anything, each function what its role allows.
    const iam = new LocalIam(LOCAL_ACCOUNT_ID);
    iam.add({ name: 'administrator', arn: `arn:aws:iam::${LOCAL_ACCOUNT_ID}:user/local-administrator`, ...LOCAL_CREDENTIALS });
    const gate = async (rules: Parameters<typeof startIamGate>[0]['rules'], upstream: string, port: number) => {
      const started = await startIamGate({ rules, iam, upstream, host, port });
      closers.add(() => started.close());
      return started.url;
    };

    const sesIdentities = new IdentityStore();
    sesIdentities.verify(VERIFIED_SES_IDENTITIES);
    const mail = await startMailCapture({ host, port: 0, apiPort: ports.mailApi, dataDir, verifiedIdentities: VERIFIED_SES_IDENTITIES });
    closers.add(() => mail.close());
    const sesEndpoint = await gate(
      sesRules({ sandbox: true, identityOf: (address) => sesIdentities.identityCovering(address) ?? address }),
      mail.sesEndpoint,
      ports.mail,
    );
    aborted();
    const dynamodb = await startDynamoDb({ host, port: 0, dataDir, region, credentials: LOCAL_CREDENTIALS });
    closers.add(() => dynamodb.close());
    const dynamodbEndpoint = await gate(dynamodbRules, dynamodb.endpoint, ports.dynamodb);
    aborted();

    // The identity provider runs with the synthesized pool's settings.
    const deployment = await synthesis;
    aborted();

    // S3 holds the template's buckets (the row-level-security rules), named as templateValues names them.
    const s3 = await startS3StandIn({ host, port: 0, dataDir: s3DataDir(dataDir), buckets: [localResourceNames(deployment.stackName).companyRulesBucket] });
    closers.add(() => s3.close());
    const s3Endpoint = await gate(s3Rules, s3.url, ports.s3);
    aborted();

    const sendEmail = cognitoMailSender(mail, { region, credentials: LOCAL_CREDENTIALS });
    closers.add(async () => sendEmail.destroy());
    const cognitoDir = cognitoDataDir(dataDir);
    // The pool invokes its trigger as Lambda does; the function exists once the app is synthesized.
    const running: { postConfirmation?: LocalFunction; preTokenGeneration?: LocalFunction } = {};
    const cognito = await startCognitoEmulator({
      host,
      port: 0,
      publicUrl: url(ports.cognito),
      dataDir: cognitoDir,
      region,
      // The app client's definition, which the CDK app client is built from too.
      client: USER_POOL_CLIENT,
      groups: POOL_GROUPS,
      sendEmail: sendEmail.send,
      webUrl: siteOrigin,
      allowSelfSignUp: deployment.userPool.allowSelfSignUp,
      ...(deployment.userPool.deviceTracking && { deviceTracking: deployment.userPool.deviceTracking }),
      accessTokenMinutes: deployment.userPool.accessTokenMinutes,
      idTokenMinutes: deployment.userPool.idTokenMinutes,
      refreshTokenDays: deployment.userPool.refreshTokenDays,
      temporaryPasswordValidityDays: deployment.userPool.temporaryPasswordValidityDays,
      attributesRequireVerificationBeforeUpdate: deployment.userPool.attributesRequireVerificationBeforeUpdate,
      invitation: invitationTemplate(deployment, region, siteOrigin),
      triggers: {
        postConfirmation: async (event) => {
          if (!running.postConfirmation) throw new Error('The post-confirmation function is not running yet');
          return running.postConfirmation.invoke(event);
        },
        preTokenGeneration: async (event) => {
          if (!running.preTokenGeneration) throw new Error('The pre token generation function is not running yet');
          return running.preTokenGeneration.invoke(event);
        },
      },
    });
    closers.add(() => cognito.close());
    const cognitoEndpoint = await gate(cognitoRules, cognito.url, ports.cognito);
    aborted();
    const quicksight = await startQuickSightEmulator({
      host,
      port: 0,
      pageHost: 'localhost',
      pagesPort: ports.quicksight,
      dataDir: quicksightDataDir(dataDir),
      accountId: LOCAL_ACCOUNT_ID,
      region,
      // Ingestions read the data source's manifest and files from local S3, as QuickSight reads them with the data source's role.
      readObject: s3.readObject,
      listObjects: s3.listObjects,
      rowLevelSecurity: { rulesDataSetId: rulesDataSetIdOf(deployment) },
      embedPages: { port: ports.quicksightEmbed, tls: await localTlsMaterial(join(quicksightDataDir(dataDir), 'tls')) },
    });
    closers.add(() => quicksight.close());
    const quicksightEndpoint = await gate(quicksightRules, quicksight.url, ports.quicksight);
    aborted();

    const endpoints: LocalEndpoints = {
      region,
      siteOrigin,
      cognito: { endpoint: cognitoEndpoint, userPoolId: cognito.userPoolId, clientId: cognito.clientId, jwks: cognito.jwks },
      dynamodbEndpoint,
      quicksightEndpoint,
      sesEndpoint,
      s3Endpoint,
    };
    const { functions, credentials } = createFunctions(deployment, endpoints, iam, closers);
    running.postConfirmation = functions.postConfirmation;
    running.preTokenGeneration = functions.preTokenGeneration;

    const functionUrls = await startFunctionUrls({
      deployment,
      functions,
      host,
      ports,
      region,
      values: templateValues(deployment, endpoints, 'error'),
      siteOrigin,
      closers,
    });
    aborted();

    const graphql = await startGraphqlServer({
      schema: await loadProductSchema(),
      handler: invokerOf(functions.graphql),
      userPoolId: cognito.userPoolId,
      clientId: cognito.clientId,
      jwks: cognito.jwks,
      host,
      port: ports.graphql,
      region,
      timeoutMs: deployment.functions.graphql.timeoutSeconds * 1000,
    });
    closers.add(() => graphql.close());
    aborted();

    const cognitoClient = new CognitoIdentityProviderClient({ endpoint: cognitoEndpoint, region, credentials: LOCAL_CREDENTIALS });
    closers.add(async () => cognitoClient.destroy());
    const secretOf = (email: string) => readTotpSecret(cognitoDir, email);
    await seedIfNeeded({
      dataDir,
      pool: { client: cognitoClient, endpoint: cognitoEndpoint, userPoolId: cognito.userPoolId, clientId: cognito.clientId, readTotpSecret: secretOf },
      quicksightAdminUrl: functionUrls.quicksightAdmin,
      dashboards: SAMPLE_DASHBOARDS,
      linkOf: (dashboardId) => dashboardLink(quicksight.pagesUrl, dashboardId),
      log,
    });

    aborted();
    await webBuild;
    const config: RuntimeConfig = {
      productName: LOCAL_PRODUCT_NAME,
      region,
      userPoolId: cognito.userPoolId,
      userPoolClientId: cognito.clientId,
      cognitoEndpoint,
      graphqlUrl: graphql.url,
      functions: functionUrls,
      marketingSiteUrl: LOCAL_MARKETING_SITE_URL,
      // The deployment defaults, as the synthesized app local mode runs uses them.
      session: deployment.session,
      rememberDevices: deployment.userPool.deviceTracking !== undefined,
    };
    const originOf = (address: string) => new URL(address).origin;
    const web = await startWebServer({
      host,
      port: ports.web,
      distDir: WEB_DIST,
      config,
      csp: {
        connectSrc: [cognitoEndpoint, graphql.url, ...Object.values(functionUrls)].map(originOf),
        frameSrc: [originOf(quicksight.embedUrl)],
      },
    });
    closers.add(() => web.close());

    const demoAccount = async (account: (typeof DEMO_ACCOUNTS)[keyof typeof DEMO_ACCOUNTS]) => {
      const totpSecret = await secretOf(account.email);
      if (!totpSecret) throw new Error(`${account.email} has no authenticator; start with --reset to seed the demo accounts again`);
      return { email: account.email, password: account.password, totpSecret };
    };
    const info: StackInfo = {
      webUrl: siteOrigin,
      region,
      cognito: {
        endpoint: cognitoEndpoint,
        userPoolId: cognito.userPoolId,
        clientId: cognito.clientId,
        jwksUrl: `${cognitoEndpoint}/${cognito.userPoolId}/.well-known/jwks.json`,
      },
      graphqlUrl: graphql.url,
      functions: functionUrls,
      quicksight: { endpoint: quicksightEndpoint, accountId: LOCAL_ACCOUNT_ID, namespace: QUICKSIGHT_NAMESPACE, embedPagesUrl: `${quicksight.embedUrl}/` },
      dynamodb: { endpoint: dynamodbEndpoint },
      mail: { inboxUrl: `${sesEndpoint}/`, apiUrl: mail.apiUrl },
      demo: {
        admin: await demoAccount(DEMO_ACCOUNTS.admin),
        user: await demoAccount(DEMO_ACCOUNTS.user),
        owner: await demoAccount(DEMO_ACCOUNTS.owner),
      },
      functionCredentials: credentials,
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

import { join } from 'node:path';
import { COMPANY_COLUMN, COMPANY_TAG_DELIMITER, COMPANY_TAG_KEY } from '#contracts/companies.ts';
import { ENV } from '#contracts/env.ts';
import { userPoolClient } from '#contracts/user-pool-client.ts';
import type { SynthesizedDeployment, UrlFunctionKey } from './aws/deployment.ts';
import { localResourceNames } from './aws/resolve.ts';
import { startCognitoEmulator, type CognitoEmulator } from '#emulators/cognito/index.ts';
import { cognitoDataDir, quicksightDataDir } from './data-dir.ts';
import { LOCAL_ACCOUNT_ID, LOCAL_CREDENTIALS, SUPPORT_FROM_ADDRESS, SUPPORT_TO_ADDRESS } from '#clients/local-stack.ts';
import { startDynamoDb } from './dynamodb.ts';
import { Closers } from './closers.ts';
import { invitationTemplate, localWebAuthn, type LocalEndpoints } from './environment.ts';
import { startIamGate } from './iam/gate.ts';
import { LocalIam } from './iam/policies.ts';
import type { LocalFunction } from './lambda/runtime.ts';
import { cognitoRules, dynamodbRules, s3Rules, sesRules } from './iam/services.ts';
import { quicksightRules } from './iam/quicksight-rules.ts';
import { startMailCapture, type MailCapture } from '#emulators/ses/capture.ts';
import { s3DataDir, startS3StandIn, type S3StandIn } from '#emulators/s3/index.ts';
import { ensureAuthorsGroup, type RoleReads } from './quicksight-access.ts';
import { IdentityStore } from '#emulators/ses/identities.ts';
import { cognitoMailSender } from '#emulators/ses/send.ts';
import { type PortLayout } from './ports.ts';
import { localTlsMaterial, startQuickSightEmulator, type QuickSightEmulator } from '#emulators/quicksight/index.ts';
import { DEMO_ACCOUNTS } from './seed/demo-accounts.ts';
import { demoSecretKeeper } from './stack-file.ts';
/**
 * The local AWS services of a local stack, each started behind the IAM gate: the mail capture
 * (SES), dynalite (DynamoDB), local S3, and the Cognito and QuickSight emulators; and the
 * endpoints the functions are given for them. local/stack.ts starts them in order.
 */

/**
 * The portal's origin. Servers listen on 127.0.0.1, but QuickSight accepts no IP address in
 * AllowedDomains (only https, or http for localhost), so the site is addressed as localhost.
 */
export const localSiteOrigin = (port: number): string => `http://localhost:${port}`;

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
 * them, and the demo accounts, as an operator verifies test recipients in a sandbox account: the demo user's and
 * owner's subscriptions reach them. Any other address stays unverified, and a file mailed to it fails as in the
 * SES sandbox (MessageRejected), shown on the subscription.
 */
const VERIFIED_SES_IDENTITIES = [
  SUPPORT_FROM_ADDRESS,
  SUPPORT_TO_ADDRESS,
  ...Object.values(DEMO_ACCOUNTS).map((account) => account.email),
];

/** What every start-up step shares: where the stack listens and writes, and what stops it. */
export interface StartContext {
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
export type Gate = (
  rules: Parameters<typeof startIamGate>[0]['rules'],
  upstream: string,
  port: number,
) => Promise<string>;

/** The address of each function URL. */
export type FunctionUrls = Record<UrlFunctionKey, string>;

/** The pool's triggers, filled in once the function workers run. */
export type PoolTriggerFunctions = { postConfirmation?: LocalFunction; preTokenGeneration?: LocalFunction };

export interface RunningSes {
  readonly mail: MailCapture;
  /** SES behind its gate. */
  readonly endpoint: string;
}

export interface RunningS3 {
  readonly standIn: S3StandIn;
  readonly endpoint: string;
}

export interface RunningCognito {
  readonly emulator: CognitoEmulator;
  readonly endpoint: string;
  /** The emulator's folder in the data directory. */
  readonly dataDir: string;
}

export interface RunningQuickSight {
  readonly emulator: QuickSightEmulator;
  readonly endpoint: string;
  /** The self-signed certificate (PEM) of its https pages and snapshot-file links. */
  readonly certificate: string;
}

/**
 * The local account's IAM: every local AWS endpoint checks signatures and policies; the
 * administrator (local mode itself) may do anything, each function what its role allows.
 */
export function localIam(): LocalIam {
  const iam = new LocalIam(LOCAL_ACCOUNT_ID);
  iam.add({
    name: 'administrator',
    arn: `arn:aws:iam::${LOCAL_ACCOUNT_ID}:user/local-administrator`,
    ...LOCAL_CREDENTIALS,
  });
  return iam;
}

export function gateFor(stack: StartContext, iam: LocalIam): Gate {
  return async (rules, upstream, port) => {
    const started = await startIamGate({ rules, iam, upstream, host: stack.host, port });
    stack.closers.add(() => started.close());
    return started.url;
  };
}

/** SES: the mail capture with the sandbox's verified identities, behind its gate. */
export async function startSes(stack: StartContext, gate: Gate): Promise<RunningSes> {
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
export async function startTables(stack: StartContext, gate: Gate): Promise<string> {
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
export async function startS3(stack: StartContext, gate: Gate, deployment: SynthesizedDeployment): Promise<RunningS3> {
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
export async function startCognito(
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
  const webAuthn = localWebAuthn(deployment, stack.region, stack.siteOrigin);
  const emulator = await startCognitoEmulator({
    host: stack.host,
    port: 0,
    publicUrl: stack.url(stack.ports.cognito),
    dataDir,
    region: stack.region,
    // The app client's definition, which the CDK app client is built from too: with passkeys
    // among the pool's first factors, its flows include USER_AUTH.
    client: userPoolClient({ passkeys: pool.allowedFirstAuthFactors.includes('WEB_AUTHN') }),
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
    allowedFirstAuthFactors: pool.allowedFirstAuthFactors,
    // Passkeys of the local site: the relying party is its host, the one origin it serves.
    ...(webAuthn && { webAuthn, webAuthnOrigins: [stack.siteOrigin] }),
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
export async function startQuickSight(
  stack: StartContext,
  gate: Gate,
  deployment: SynthesizedDeployment,
  reads: RoleReads,
): Promise<RunningQuickSight> {
  const dataDir = quicksightDataDir(stack.dataDir);
  const tls = await localTlsMaterial(join(dataDir, 'tls'));
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
    // The sample datasets' tag rule on the column their group rules read: an emailed file's rows.
    rowLevelPermissionTagConfiguration: {
      Status: 'ENABLED',
      TagRules: [
        { TagKey: COMPANY_TAG_KEY, ColumnName: COMPANY_COLUMN, TagMultiValueDelimiter: COMPANY_TAG_DELIMITER },
      ],
    },
    embedPages: { port: stack.ports.quicksightEmbed, tls },
  });
  stack.closers.add(() => emulator.close());
  const endpoint = await gate(quicksightRules, emulator.url, stack.ports.quicksight);
  await ensureAuthorsGroup(endpoint, stack.region);
  return { emulator, endpoint, certificate: tls.cert };
}

/**
 * The local values the template's references resolve to: the emulators' addresses behind their gates and the pool's
 * ids.
 */
export function localEndpoints(
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
    quicksightCertificate: running.quicksight.certificate,
    sesEndpoint: running.ses.endpoint,
    s3Endpoint: running.s3.endpoint,
  };
}

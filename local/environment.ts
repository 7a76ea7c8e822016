import { ENV } from '#contracts/env.ts';
import { tables } from '#contracts/tables.ts';
import type { SynthesizedDeployment, SynthesizedFunction, WebAuthnSettings } from './aws/deployment.ts';
import {
  LOCAL_SITE_DOMAIN,
  localResourceNames,
  localResources,
  resolveValue,
  withSiteOrigin,
  type LocalValues,
} from './aws/resolve.ts';
import { LOCAL_ACCOUNT_ID, localTableName } from '#clients/local-stack.ts';

/** The sign-in page's 'Back to the marketing site' link; a reserved documentation domain locally. */
export const LOCAL_MARKETING_SITE_URL = 'https://example.com/';

export interface LocalEndpoints {
  readonly region: string;
  /** The local portal's origin: where the template has the CDN's. */
  readonly siteOrigin: string;
  readonly cognito: {
    readonly endpoint: string;
    readonly userPoolId: string;
    readonly clientId: string;
    readonly jwks: object;
  };
  readonly dynamodbEndpoint: string;
  readonly quicksightEndpoint: string;
  /** The certificate (PEM) of local QuickSight's https pages and snapshot-file links; absent where none runs. */
  readonly quicksightCertificate?: string;
  readonly sesEndpoint: string;
  /** Local S3 (path-style) behind its IAM gate; absent where no S3 runs (a function then has no S3_ENDPOINT). */
  readonly s3Endpoint?: string;
}

/**
 * The local value of everything the template refers to. `unresolved` says what becomes of
 * resources without a stand-in (see LocalValues).
 */
export function templateValues(
  deployment: SynthesizedDeployment,
  local: LocalEndpoints,
  unresolved: LocalValues['unresolved'],
): LocalValues {
  return {
    region: local.region,
    accountId: LOCAL_ACCOUNT_ID,
    stackName: deployment.stackName,
    unresolved,
    resources: localResources(deployment, {
      region: local.region,
      accountId: LOCAL_ACCOUNT_ID,
      userPoolId: local.cognito.userPoolId,
      userPoolClientId: local.cognito.clientId,
      tableNames: Object.fromEntries(tables.map((table) => [table.id, localTableName(table)])),
      ...localResourceNames(deployment.stackName),
    }),
  };
}

/**
 * The process environment of one function, as Lambda would give it: the variables of its
 * `AWS::Lambda::Function` in the synthesized template (resolved to local values), the
 * runtime's reserved variables with the function's own credentials, and the local-only
 * endpoint overrides. Nothing else: a handler that reads a variable its construct does not
 * set finds it missing, as in AWS.
 */
export function functionEnvironment(
  fn: SynthesizedFunction,
  values: LocalValues,
  local: LocalEndpoints,
  credentials: { readonly accessKeyId: string; readonly secretAccessKey: string },
): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [name, value] of Object.entries(fn.environment)) {
    let resolved: unknown;
    try {
      resolved = resolveValue(value, values);
    } catch (error) {
      throw new Error(
        `Environment variable ${name} of ${fn.logicalId}: ${error instanceof Error ? error.message : String(error)}`,
      );
    }
    env[name] = withSiteOrigin(String(resolved), local.siteOrigin);
  }
  const name = functionName(fn);
  return {
    ...env,
    // Local mode keeps its terminal quiet unless asked otherwise (the template says INFO).
    [ENV.logLevel]: process.env[ENV.logLevel] ?? 'WARN',
    ...(local.quicksightCertificate && { [ENV.localCaCertificate]: local.quicksightCertificate }),
    AWS_REGION: local.region,
    AWS_DEFAULT_REGION: local.region,
    AWS_LAMBDA_FUNCTION_NAME: name,
    AWS_LAMBDA_FUNCTION_VERSION: '$LATEST',
    AWS_LAMBDA_FUNCTION_MEMORY_SIZE: String(fn.memoryMb),
    AWS_LAMBDA_LOG_GROUP_NAME: `/aws/lambda/${name}`,
    AWS_EXECUTION_ENV: 'AWS_Lambda_nodejs24.x',
    AWS_ACCESS_KEY_ID: credentials.accessKeyId,
    AWS_SECRET_ACCESS_KEY: credentials.secretAccessKey,
    TZ: ':UTC',
    AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true',
    // Local only: the stand-ins' endpoints, and the pool's keys for the token verifier.
    AWS_EC2_METADATA_DISABLED: 'true',
    [ENV.cognitoEndpoint]: local.cognito.endpoint,
    [ENV.cognitoJwks]: JSON.stringify(local.cognito.jwks),
    [ENV.dynamodbEndpoint]: local.dynamodbEndpoint,
    [ENV.quicksightEndpoint]: local.quicksightEndpoint,
    [ENV.sesEndpoint]: local.sesEndpoint,
    ...(local.s3Endpoint !== undefined && { [ENV.s3Endpoint]: local.s3Endpoint }),
  };
}

/** A function's name: its handler folder, which the construct gives as the Powertools service name. */
export const functionName = (fn: SynthesizedFunction): string => {
  const name = fn.environment.POWERTOOLS_SERVICE_NAME;
  return typeof name === 'string' ? name : fn.logicalId;
};

/** What the pool's settings may refer to: the CDN alone, whose domain stands for the site's. */
const siteValues = (deployment: SynthesizedDeployment, region: string): LocalValues => ({
  region,
  accountId: LOCAL_ACCOUNT_ID,
  stackName: deployment.stackName,
  unresolved: 'error',
  resources: {
    [deployment.resources.distribution]: { ref: 'ELOCALDISTRIBUTION', attributes: { DomainName: LOCAL_SITE_DOMAIN } },
  },
});

/**
 * The pool's invitation email as local mode sends it: the template's subject and message with
 * the site's address (the CDN's domain in the template) made the local portal's.
 */
export function invitationTemplate(
  deployment: SynthesizedDeployment,
  region: string,
  siteOrigin: string,
): { emailSubject: string; emailMessage: string } {
  const values = siteValues(deployment, region);
  const text = (value: unknown) => withSiteOrigin(String(resolveValue(value, values)), siteOrigin);
  return {
    emailSubject: text(deployment.userPool.invitation.emailSubject),
    emailMessage: text(deployment.userPool.invitation.emailMessage),
  };
}

/**
 * The pool's passkey settings as local mode runs them, or undefined without passkeys. In the
 * template the relying party is the site's domain, the CDN's; locally the site is served at
 * `siteOrigin`, and a browser creates and uses passkeys only for the host of the page's origin (or
 * a domain it belongs to), so the local relying party is that host, `localhost`. A relying party
 * that is not the CDN's domain (a custom domain in the configuration local mode synthesizes) names
 * a site local mode does not serve, and is refused.
 */
export function localWebAuthn(
  deployment: SynthesizedDeployment,
  region: string,
  siteOrigin: string,
): (Omit<WebAuthnSettings, 'relyingPartyId'> & { readonly relyingPartyId: string }) | undefined {
  const webAuthn = deployment.userPool.webAuthn;
  if (!webAuthn) return undefined;
  const relyingParty = resolveValue(webAuthn.relyingPartyId, siteValues(deployment, region));
  if (relyingParty !== LOCAL_SITE_DOMAIN) {
    throw new Error(
      `The pool's passkey relying party is ${JSON.stringify(relyingParty)}, not the site's distribution: local mode serves the site at ${siteOrigin} and runs with no custom domain (domainName)`,
    );
  }
  return { ...webAuthn, relyingPartyId: new URL(siteOrigin).hostname };
}

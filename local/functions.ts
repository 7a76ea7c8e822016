import { randomBytes } from 'node:crypto';
import type { Context } from 'aws-lambda';
import {
  URL_FUNCTION_KEYS,
  FUNCTION_KEYS,
  type DeployedFunctionKey,
  type SynthesizedDeployment,
  type SynthesizedFunction,
  type UrlFunctionKey,
} from './aws/deployment.ts';
import { resolveValue, withSiteOrigin, type LocalValues } from './aws/resolve.ts';
import type { Closers } from './closers.ts';
import { functionEnvironment, functionName, templateValues, type LocalEndpoints } from './environment.ts';
import { LOCAL_ACCOUNT_ID } from '#clients/local-stack.ts';
import { startFunctionUrl } from './function-url/server.ts';
import type { LocalIam, LocalPrincipal, PolicyDocument } from './iam/policies.ts';
import { LocalFunction } from './lambda/runtime.ts';
import type { PortLayout } from './ports.ts';

/** The access key a function signs its AWS calls with. */
export interface FunctionCredentials {
  readonly accessKeyId: string;
  readonly secretAccessKey: string;
}

export interface LocalFunctions {
  readonly functions: Readonly<Record<DeployedFunctionKey, LocalFunction>>;
  readonly credentials: Readonly<Record<DeployedFunctionKey, FunctionCredentials>>;
}

const KEY_ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';
/** Lambda hands a function temporary credentials of its role (`ASIA...` access keys). */
export function newCredentials(): FunctionCredentials {
  const id = [...randomBytes(16)].map((byte) => KEY_ALPHABET.charAt(byte % KEY_ALPHABET.length)).join('');
  return { accessKeyId: `ASIA${id}`, secretAccessKey: randomBytes(30).toString('base64') };
}

/**
 * Every function of the synthesized app as a local Lambda: its deployed bundle in its own
 * execution environment with its own environment variables, and credentials of its own that
 * the local IAM holds to its role's identity policies from the same template.
 */
export function createFunctions(
  deployment: SynthesizedDeployment,
  endpoints: LocalEndpoints,
  iam: LocalIam,
  closers: Closers,
): LocalFunctions {
  const policyValues = templateValues(deployment, endpoints, 'placeholder');
  const environmentValues = templateValues(deployment, endpoints, 'error');
  const functions = {} as Record<DeployedFunctionKey, LocalFunction>;
  const credentials = {} as Record<DeployedFunctionKey, FunctionCredentials>;
  for (const key of FUNCTION_KEYS) {
    const fn = deployment.functions[key];
    const name = functionName(fn);
    const keys = newCredentials();
    iam.add(functionPrincipal(fn, deployment.stackName, policyValues, keys));
    const local = new LocalFunction({
      name,
      bundle: fn.bundle,
      handlerExport: fn.handlerExport,
      environment: functionEnvironment(fn, environmentValues, endpoints, keys),
      timeoutMs: fn.timeoutSeconds * 1000,
      memoryMb: fn.memoryMb,
      region: endpoints.region,
      accountId: LOCAL_ACCOUNT_ID,
    });
    local.warm();
    closers.add(() => local.close());
    functions[key] = local;
    credentials[key] = keys;
  }
  return { functions, credentials };
}

/** A function as the local IAM knows it: its role's session, with the role's identity policies resolved. */
export function functionPrincipal(
  fn: SynthesizedFunction,
  stackName: string,
  policyValues: LocalValues,
  keys: FunctionCredentials,
): LocalPrincipal {
  const name = functionName(fn);
  const policies: PolicyDocument[] = fn.policies.map((policy) => ({
    name: policy.name,
    policy: resolveValue(policy.document, policyValues),
  }));
  return {
    name,
    arn: `arn:aws:sts::${LOCAL_ACCOUNT_ID}:assumed-role/${stackName}-${fn.roleLogicalId}/${name}`,
    ...keys,
    policies,
  };
}

/** A handler-shaped entry into a local function, for the servers that invoke it (AppSync, function URLs). */
export const invokerOf =
  (fn: LocalFunction) =>
  (event: unknown, context: Context): Promise<unknown> =>
    fn.invoke(event, context.awsRequestId);

/**
 * One function URL per function, each on its own port, with the CORS settings and timeout
 * of its AWS::Lambda::Url and function in the template. Resolves with their URLs, which end
 * in '/' as a function URL's do.
 */
export async function startFunctionUrls(options: {
  readonly deployment: SynthesizedDeployment;
  readonly functions: LocalFunctions['functions'];
  readonly host: string;
  readonly ports: PortLayout;
  readonly region: string;
  readonly values: LocalValues;
  readonly siteOrigin: string;
  readonly closers: Closers;
}): Promise<Record<UrlFunctionKey, string>> {
  const urls = {} as Record<UrlFunctionKey, string>;
  for (const key of URL_FUNCTION_KEYS) {
    const fn = options.deployment.functions[key];
    if (!fn.url) throw new Error(`The template has no function URL for ${fn.logicalId}`);
    // The local adapter has no IAM-signed invocations: it stands in for auth type NONE only.
    if (fn.url.authType !== 'NONE')
      throw new Error(
        `The function URL of ${fn.logicalId} has auth type ${fn.url.authType}; local mode serves NONE only`,
      );
    const origins = fn.url.allowOrigins.map((origin) =>
      withSiteOrigin(String(resolveValue(origin, options.values)), options.siteOrigin),
    );
    const server = await startFunctionUrl({
      functionName: functionName(fn),
      handler: invokerOf(options.functions[key]),
      cors: {
        allowOrigins: origins,
        allowMethods: fn.url.allowMethods,
        allowHeaders: fn.url.allowHeaders,
        maxAge: fn.url.maxAgeSeconds,
      },
      host: options.host,
      port: options.ports[key],
      region: options.region,
      timeoutMs: fn.timeoutSeconds * 1000,
    });
    options.closers.add(() => server.close());
    urls[key] = `${server.url}/`;
  }
  return urls;
}

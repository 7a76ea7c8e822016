import { FUNCTION_KEYS } from '#local/aws/deployment.ts';
import { localDeployment } from '#local/aws/local-deployment.ts';
import { templateValues, type LocalEndpoints } from '#local/environment.ts';
import { LOCAL_ACCOUNT_ID, LOCAL_CREDENTIALS, LOCAL_REGION } from '#clients/local-stack.ts';
import { functionPrincipal, newCredentials, type FunctionCredentials } from '#local/functions.ts';
import { startIamGate } from '#local/iam/gate.ts';
import { LocalIam, type PolicyDocument } from '#local/iam/policies.ts';
import type { ServiceRules } from '#local/iam/services.ts';

/**
 * Local mode's front door for a conformance target: the IAM gate local mode puts before each
 * stand-in (local/stack-services.ts), which checks every request's SigV4 signature and evaluates each
 * call against the caller's identity policies. The suite signs as the portal's functions do:
 * with credentials whose policies are those of the functions' roles in the synthesized
 * template (all of them together, so one client can make any call some function makes; a
 * call no function's role allows is refused with AccessDenied as it would be in AWS). Setup
 * that only an operator does (creating scratch pools, groups, data) signs as the account's
 * administrator, still through the gate.
 */
export interface FrontDoor {
  /** The gate's URL: the endpoint the suite's clients use. */
  readonly url: string;
  /** Keys held to the functions' role policies. */
  readonly functions: FunctionCredentials;
  /** Keys of the account's administrator (local mode itself signs with these). */
  readonly administrator: FunctionCredentials;
  close(): Promise<void>;
}

export interface FrontDoorOptions {
  readonly rules: ServiceRules;
  /** The stand-in's own URL. */
  readonly upstream: string;
  /** The pool the policies name (Cognito targets); others name a pool that does not matter here. */
  readonly userPool?: { readonly userPoolId: string; readonly clientId: string };
}

export async function startFrontDoor(options: FrontDoorOptions): Promise<FrontDoor> {
  const deployment = await localDeployment();
  const pool = options.userPool ?? { userPoolId: `${LOCAL_REGION}_conformance`, clientId: 'conformance' };
  const endpoints: LocalEndpoints = {
    region: LOCAL_REGION,
    siteOrigin: 'http://localhost:4400',
    cognito: { endpoint: options.upstream, userPoolId: pool.userPoolId, clientId: pool.clientId, jwks: {} },
    dynamodbEndpoint: options.upstream,
    quicksightEndpoint: options.upstream,
    sesEndpoint: options.upstream,
  };
  const values = templateValues(deployment, endpoints, 'placeholder');
  const functions = newCredentials();
  const policies: PolicyDocument[] = FUNCTION_KEYS.flatMap((key) =>
    (functionPrincipal(deployment.functions[key], deployment.stackName, values, newCredentials()).policies ?? []).map(
      (policy) => ({
        ...policy,
        name: `${key}-${policy.name}`,
      }),
    ),
  );
  const iam = new LocalIam(LOCAL_ACCOUNT_ID);
  iam.add({
    name: 'administrator',
    arn: `arn:aws:iam::${LOCAL_ACCOUNT_ID}:user/local-administrator`,
    ...LOCAL_CREDENTIALS,
  });
  iam.add({
    name: 'portal functions',
    arn: `arn:aws:sts::${LOCAL_ACCOUNT_ID}:assumed-role/${deployment.stackName}-conformance/portal-functions`,
    ...functions,
    policies,
  });
  const gate = await startIamGate({
    rules: options.rules,
    iam,
    upstream: options.upstream,
    host: '127.0.0.1',
    port: 0,
    region: LOCAL_REGION,
  });
  return { url: gate.url, functions, administrator: LOCAL_CREDENTIALS, close: () => gate.close() };
}

import { App } from 'aws-cdk-lib';
import type { IConstruct } from 'constructs';
import type { CfnElement } from 'aws-cdk-lib';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { loadConfig } from '#lib/config.ts';
import { addPortal } from '#lib/portal-app.ts';
import type { PortalFunction } from '#lib/portal-function.ts';
import { LOCAL_ACCOUNT_ID, LOCAL_CONTEXT } from '#clients/local-stack.ts';
import type {
  DeployedFunctionKey,
  FirstAuthFactor,
  FunctionUrlSettings,
  SynthesizedDeployment,
  SynthesizedFunction,
  UserPoolGroup,
  UserPoolSettings,
  WebAuthnSettings,
} from './deployment.ts';

/**
 * Synthesizes the CDK app as a deployment would (bundling every handler with esbuild) with
 * the configuration local mode runs, and extracts what local mode needs from the template.
 */

type Resource = { Type: string; Properties?: Record<string, unknown> };

const projectRoot = fileURLToPath(new URL('../..', import.meta.url));

const refersTo = (roles: unknown, logicalId: string) =>
  Array.isArray(roles) && roles.some((role) => (role as { Ref?: string })?.Ref === logicalId);

/** Identity policies attached to a role: managed and inline policies naming it, and the role's own. */
function rolePolicies(resources: Readonly<Record<string, Resource>>, roleId: string) {
  const policies: { name: string; document: unknown }[] = [];
  for (const [policyId, resource] of Object.entries(resources)) {
    const p = resource.Properties ?? {};
    if (
      (resource.Type === 'AWS::IAM::ManagedPolicy' || resource.Type === 'AWS::IAM::Policy') &&
      refersTo(p.Roles, roleId)
    ) {
      policies.push({ name: policyId, document: p.PolicyDocument });
    }
  }
  for (const inline of ((resources[roleId]!.Properties ?? {}).Policies as
    { PolicyName: string; PolicyDocument: unknown }[] | undefined) ?? []) {
    policies.push({ name: `${roleId}/${inline.PolicyName}`, document: inline.PolicyDocument });
  }
  return policies;
}

export function synthesizeDeployment(outdir: string, sourceHash: string): SynthesizedDeployment {
  // The site's files are not part of what local mode takes: a one-page stand-in keeps the
  // synthesis independent of the web build that runs meanwhile.
  const webAssetDirectory = join(outdir, 'web-stand-in');
  mkdirSync(webAssetDirectory, { recursive: true });
  writeFileSync(join(webAssetDirectory, 'index.html'), '<!doctype html><title>Portal</title>');

  const cdkJson = JSON.parse(readFileSync(join(projectRoot, 'cdk.json'), 'utf8')) as {
    context?: Record<string, unknown>;
  };
  const app = new App({ outdir: join(outdir, 'cdk.out'), context: { ...cdkJson.context, ...LOCAL_CONTEXT } });
  const config = loadConfig((key) => app.node.tryGetContext(key));
  const stack = addPortal(app, { config, webAssetDirectory, account: LOCAL_ACCOUNT_ID, compliance: false });
  const assembly = app.synth();
  const artifact = assembly.getStackByName(stack.stackName);
  const resources = (artifact.template as { Resources: Record<string, Resource> }).Resources;
  const logicalId = (construct: IConstruct): string =>
    stack.resolve(stack.getLogicalId((construct.node.defaultChild ?? construct) as CfnElement)) as string;

  const describe = (fn: PortalFunction): SynthesizedFunction => {
    const id = logicalId(fn.function);
    const properties = resources[id]!.Properties as {
      Code: { S3Key: string };
      Handler: string;
      Timeout: number;
      MemorySize: number;
      Environment?: { Variables?: Record<string, unknown> };
    };
    const roleId = logicalId(fn.role);
    const policies = rolePolicies(resources, roleId);
    const urlResource = Object.values(resources).find(
      (resource) =>
        resource.Type === 'AWS::Lambda::Url' &&
        JSON.stringify(resource.Properties?.TargetFunctionArn).includes(`"${id}"`),
    );
    const [, handlerExport] = properties.Handler.split('.');
    return {
      logicalId: id,
      bundle: relative(
        outdir,
        join(artifact.assembly.directory, `asset.${properties.Code.S3Key.replace(/\.zip$/, '')}`, 'index.mjs'),
      ),
      handlerExport: handlerExport ?? 'handler',
      timeoutSeconds: properties.Timeout,
      memoryMb: properties.MemorySize,
      environment: properties.Environment?.Variables ?? {},
      roleLogicalId: roleId,
      policies,
      ...(urlResource && { url: urlSettings(urlResource) }),
    };
  };

  const { functions } = stack.functions;
  const described: Record<DeployedFunctionKey, SynthesizedFunction> = {
    embed: describe(functions.embed),
    quicksightAdmin: describe(functions.quicksightAdmin),
    userAdmin: describe(functions.userAdmin),
    mfa: describe(functions.mfa),
    contact: describe(functions.contact),
    graphql: describe(stack.graphql.resolver),
    postConfirmation: describe(stack.auth.postConfirmation),
    preTokenGeneration: describe(stack.auth.preTokenGeneration),
    companyCheck: describe(stack.companies.check),
    deliveries: describe(stack.deliveries.function),
  };
  return {
    sourceHash,
    stackName: stack.stackName,
    functions: described,
    session: { idleTimeoutMinutes: config.idleTimeoutMinutes, absoluteSessionMinutes: config.absoluteSessionMinutes },
    userPool: {
      ...userPoolSettings(resources[logicalId(stack.auth.userPool)]!, resources[logicalId(stack.auth.client)]!),
      groups: userPoolGroups(resources, logicalId(stack.auth.userPool)),
    },
    resources: {
      userPool: logicalId(stack.auth.userPool),
      userPoolClient: logicalId(stack.auth.client),
      distribution: logicalId(stack.site.distribution),
      tables: Object.fromEntries(
        [...stack.data.tables.values()].map((table) => [table.definition.id, logicalId(table.table)]),
      ),
      companyRulesBucket: logicalId(stack.companies.bucket),
      companyRulesReadRole: logicalId(stack.companies.quickSightRole),
    },
    companyRulesReadRolePolicies: rolePolicies(resources, logicalId(stack.companies.quickSightRole)),
  };
}

const MINUTES_PER_UNIT: Record<string, number> = { seconds: 1 / 60, minutes: 1, hours: 60, days: 24 * 60 };

/**
 * The groups of the pool `poolLogicalId`: the template's AWS::Cognito::UserPoolGroup resources
 * whose UserPoolId refers to it, by precedence.
 */
export function userPoolGroups(resources: Readonly<Record<string, Resource>>, poolLogicalId: string): UserPoolGroup[] {
  const groups: UserPoolGroup[] = [];
  for (const [id, resource] of Object.entries(resources)) {
    if (resource.Type !== 'AWS::Cognito::UserPoolGroup') continue;
    const properties = (resource.Properties ?? {}) as {
      UserPoolId?: unknown;
      GroupName?: unknown;
      Precedence?: unknown;
      Description?: unknown;
    };
    if ((properties.UserPoolId as { Ref?: unknown } | undefined)?.Ref !== poolLogicalId) continue;
    if (typeof properties.GroupName !== 'string') throw new Error(`The user pool group ${id} has no literal GroupName`);
    groups.push({
      name: properties.GroupName,
      ...(typeof properties.Precedence === 'number' && { precedence: properties.Precedence }),
      ...(typeof properties.Description === 'string' && { description: properties.Description }),
    });
  }
  return groups.sort((a, b) => (a.precedence ?? Number.MAX_SAFE_INTEGER) - (b.precedence ?? Number.MAX_SAFE_INTEGER));
}

/** The user pool and app client settings local mode's identity provider runs with. */
export function userPoolSettings(pool: Resource, client: Resource): Omit<UserPoolSettings, 'groups'> {
  const poolProperties = pool.Properties as {
    AdminCreateUserConfig?: {
      AllowAdminCreateUserOnly?: boolean;
      InviteMessageTemplate?: { EmailSubject?: unknown; EmailMessage?: unknown };
    };
    Policies?: {
      PasswordPolicy?: { TemporaryPasswordValidityDays?: number };
      SignInPolicy?: { AllowedFirstAuthFactors?: string[] };
    };
    DeviceConfiguration?: { ChallengeRequiredOnNewDevice?: boolean; DeviceOnlyRememberedOnUserPrompt?: boolean };
    UserAttributeUpdateSettings?: { AttributesRequireVerificationBeforeUpdate?: ('email' | 'phone_number')[] };
    LambdaConfig?: { PreTokenGenerationConfig?: { LambdaVersion?: string } };
  };
  const preTokenVersion = poolProperties.LambdaConfig?.PreTokenGenerationConfig?.LambdaVersion;
  // The local pool builds the version 2 event (ID and access token customization) only.
  if (preTokenVersion !== undefined && preTokenVersion !== 'V2_0') {
    throw new Error(`Local mode sends the version 2 pre token generation event; the pool asks for ${preTokenVersion}`);
  }
  const devices = poolProperties.DeviceConfiguration;
  const clientProperties = client.Properties as {
    AccessTokenValidity: number;
    IdTokenValidity: number;
    RefreshTokenValidity: number;
    TokenValidityUnits?: { AccessToken?: string; IdToken?: string; RefreshToken?: string };
  };
  // Cognito's default units when TokenValidityUnits leaves one out: hours, hours, days.
  const units = {
    AccessToken: 'hours',
    IdToken: 'hours',
    RefreshToken: 'days',
    ...clientProperties.TokenValidityUnits,
  };
  const minutes = (value: number, unit: string) => value * MINUTES_PER_UNIT[unit]!;
  const allowedFirstAuthFactors = firstAuthFactors(poolProperties.Policies?.SignInPolicy?.AllowedFirstAuthFactors);
  const webAuthn = webAuthnSettings(pool, allowedFirstAuthFactors);
  return {
    allowSelfSignUp: !(poolProperties.AdminCreateUserConfig?.AllowAdminCreateUserOnly ?? false),
    ...(devices && {
      deviceTracking: {
        challengeRequiredOnNewDevice: devices.ChallengeRequiredOnNewDevice ?? false,
        deviceOnlyRememberedOnUserPrompt: devices.DeviceOnlyRememberedOnUserPrompt ?? false,
      },
    }),
    accessTokenMinutes: minutes(clientProperties.AccessTokenValidity, units.AccessToken),
    idTokenMinutes: minutes(clientProperties.IdTokenValidity, units.IdToken),
    refreshTokenDays: minutes(clientProperties.RefreshTokenValidity, units.RefreshToken) / (24 * 60),
    // Cognito's defaults when the pool leaves them out: 7 days and its own short message.
    temporaryPasswordValidityDays: poolProperties.Policies?.PasswordPolicy?.TemporaryPasswordValidityDays ?? 7,
    // Without the setting Cognito applies changes of email and phone number at once.
    attributesRequireVerificationBeforeUpdate:
      poolProperties.UserAttributeUpdateSettings?.AttributesRequireVerificationBeforeUpdate ?? [],
    invitation: {
      emailSubject:
        poolProperties.AdminCreateUserConfig?.InviteMessageTemplate?.EmailSubject ?? 'Your temporary password',
      emailMessage:
        poolProperties.AdminCreateUserConfig?.InviteMessageTemplate?.EmailMessage ??
        'Your username is {username} and temporary password is {####}.',
    },
    allowedFirstAuthFactors,
    ...(webAuthn && { webAuthn }),
  };
}

const FIRST_AUTH_FACTORS: readonly string[] = ['PASSWORD', 'WEB_AUTHN', 'EMAIL_OTP', 'SMS_OTP'];

/** AllowedFirstAuthFactors of the pool; without a sign-in policy, the password alone (Cognito's default). */
function firstAuthFactors(factors: readonly string[] | undefined): FirstAuthFactor[] {
  for (const factor of factors ?? []) {
    if (!FIRST_AUTH_FACTORS.includes(factor)) throw new Error(`The pool allows the unknown first factor ${factor}`);
  }
  return factors && factors.length > 0 ? ([...factors] as FirstAuthFactor[]) : ['PASSWORD'];
}

/**
 * The pool's passkey settings, with Cognito's defaults for what it leaves out (user verification
 * preferred, passkeys a single factor); undefined when the pool names no relying party and
 * passkeys are no first factor.
 */
function webAuthnSettings(pool: Resource, firstFactors: readonly FirstAuthFactor[]): WebAuthnSettings | undefined {
  const properties = pool.Properties as {
    WebAuthnRelyingPartyID?: unknown;
    WebAuthnUserVerification?: string;
    WebAuthnFactorConfiguration?: string;
  };
  const relyingPartyId = properties.WebAuthnRelyingPartyID;
  if (relyingPartyId === undefined) {
    if (firstFactors.includes('WEB_AUTHN')) {
      throw new Error('The pool allows passkeys as a first factor but names no WebAuthnRelyingPartyID for local mode');
    }
    return undefined;
  }
  const userVerification = properties.WebAuthnUserVerification ?? 'preferred';
  const factorConfiguration = properties.WebAuthnFactorConfiguration ?? 'SINGLE_FACTOR';
  if (userVerification !== 'required' && userVerification !== 'preferred') {
    throw new Error(`The pool's WebAuthnUserVerification ${userVerification} is not one local mode knows`);
  }
  if (factorConfiguration !== 'SINGLE_FACTOR' && factorConfiguration !== 'MULTI_FACTOR_WITH_USER_VERIFICATION') {
    throw new Error(`The pool's WebAuthnFactorConfiguration ${factorConfiguration} is not one local mode knows`);
  }
  return { relyingPartyId, userVerification, factorConfiguration };
}

function urlSettings(resource: Resource): FunctionUrlSettings {
  const properties = resource.Properties as {
    AuthType: string;
    Cors?: { AllowOrigins?: unknown[]; AllowMethods?: string[]; AllowHeaders?: string[]; MaxAge?: number };
  };
  return {
    authType: properties.AuthType,
    allowOrigins: properties.Cors?.AllowOrigins ?? [],
    allowMethods: properties.Cors?.AllowMethods ?? [],
    allowHeaders: properties.Cors?.AllowHeaders ?? [],
    maxAgeSeconds: properties.Cors?.MaxAge ?? 0,
  };
}

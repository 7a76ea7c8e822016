import { firstFactorsOf, passkeysCountAsMfa, signInSettingsOf, signInStatements } from './sign-in-claims.ts';
import {
  isRecord,
  readable,
  readableList,
  referencedId,
  resourceName,
  resourcesOfType,
  type StackTemplate,
  type TemplateResource,
} from './template.ts';

/**
 * What holds data and what is reachable from the internet, with the settings auditors ask
 * about, read from the synthesized template. Each entry is a list of labelled settings so
 * the report renders and compares them the same way.
 */

export interface InventoryItem {
  readonly kind: string;
  readonly name: string;
  readonly logicalId: string;
  readonly settings: Readonly<Record<string, string>>;
}

export interface Inventory {
  readonly dataStores: readonly InventoryItem[];
  readonly entryPoints: readonly InventoryItem[];
  readonly identity: readonly InventoryItem[];
}

const props = (resource: TemplateResource) => resource.Properties ?? {};
const at = (value: unknown, ...path: string[]): unknown =>
  path.reduce<unknown>((node, key) => (isRecord(node) ? node[key] : undefined), value);
const yesNo = (value: unknown, yes = 'yes', no = 'no') =>
  value === true || value === 'true' || value === 'ACTIVE' || value === 'Enabled' ? yes : no;
const removal = (resource: TemplateResource) =>
  `on stack deletion: ${resource.DeletionPolicy === 'Retain' || resource.DeletionPolicy === 'RetainExceptOnCreate' ? 'kept' : 'deleted'}`;

/** Metadata the stack writes next to a data store: what it holds (lib/data.ts). */
export const DATA_CLASSIFICATION_METADATA = 'portal:data-classification';

export interface StoreData {
  readonly classification: string;
  readonly personalData: readonly string[];
  readonly purpose: string;
}

export function storeDataOf(resource: TemplateResource | undefined): StoreData | undefined {
  const data = resource?.Metadata?.[DATA_CLASSIFICATION_METADATA];
  return isRecord(data) && typeof data.classification === 'string' && Array.isArray(data.personalData)
    ? {
        classification: data.classification,
        personalData: data.personalData.map(String),
        purpose: String(data.purpose ?? ''),
      }
    : undefined;
}

function item(stack: StackTemplate, kind: string, id: string, settings: Record<string, string>): InventoryItem {
  const data = storeDataOf(stack.template.Resources[id]);
  const classified: Record<string, string> = data
    ? {
        classification: `${data.classification}: ${data.purpose}`,
        'personal data': data.personalData.length > 0 ? data.personalData.join('; ') : 'none',
      }
    : {};
  return { kind, name: resourceName(stack, id), logicalId: id, settings: { ...settings, ...classified } };
}

function tables(stack: StackTemplate): InventoryItem[] {
  return resourcesOfType(stack.template, 'AWS::DynamoDB::Table').map(([id, table]) => {
    const p = props(table);
    const kms = at(p, 'SSESpecification', 'KMSMasterKeyId');
    return item(stack, 'DynamoDB table', id, {
      encryption:
        at(p, 'SSESpecification', 'SSEEnabled') === true
          ? `KMS ${kms ? readable(stack, kms) : '(AWS managed key)'}`
          : 'AWS owned key (DynamoDB default)',
      'point-in-time recovery': yesNo(
        at(p, 'PointInTimeRecoverySpecification', 'PointInTimeRecoveryEnabled'),
        'on (35 days)',
        'off',
      ),
      'deletion protection': yesNo(p.DeletionProtectionEnabled, 'on', 'off'),
      retention: `${at(p, 'TimeToLiveSpecification', 'Enabled') === true ? `items expire by ${readable(stack, at(p, 'TimeToLiveSpecification', 'AttributeName'))}; ` : ''}${removal(table)}`,
    });
  });
}

function buckets(stack: StackTemplate): InventoryItem[] {
  return resourcesOfType(stack.template, 'AWS::S3::Bucket').map(([id, bucket]) => {
    const p = props(bucket);
    const rules = (at(p, 'BucketEncryption', 'ServerSideEncryptionConfiguration') as unknown[] | undefined) ?? [];
    const algorithm = rules
      .map((rule) => readable(stack, at(rule, 'ServerSideEncryptionByDefault', 'SSEAlgorithm')))
      .filter(Boolean);
    const block = at(p, 'PublicAccessBlockConfiguration');
    const lifecycle = ((at(p, 'LifecycleConfiguration', 'Rules') as unknown[] | undefined) ?? []).map((rule) => {
      const days = at(rule, 'ExpirationInDays');
      const noncurrent = at(rule, 'NoncurrentVersionExpiration', 'NoncurrentDays');
      return [
        days !== undefined ? `objects expire after ${String(days)} days` : '',
        noncurrent !== undefined ? `old versions after ${String(noncurrent)} days` : '',
      ]
        .filter(Boolean)
        .join(', ');
    });
    return item(stack, 'S3 bucket', id, {
      encryption: algorithm.length > 0 ? algorithm.join(', ') : 'none declared (S3 applies SSE-S3 by default)',
      versioning: at(p, 'VersioningConfiguration', 'Status') === 'Enabled' ? 'on' : 'off',
      'public access block':
        isRecord(block) && Object.values(block).every((v) => v === true) ? 'all four settings on' : 'not fully on',
      'access logging': p.LoggingConfiguration
        ? `to ${readable(stack, at(p, 'LoggingConfiguration', 'DestinationBucketName'))}`
        : 'off',
      retention: `${lifecycle.filter(Boolean).join('; ') || 'kept until deleted'}; ${removal(bucket)}`,
    });
  });
}

function logGroups(stack: StackTemplate): InventoryItem[] {
  return resourcesOfType(stack.template, 'AWS::Logs::LogGroup').map(([id, group]) => {
    const p = props(group);
    return item(stack, 'Log group', id, {
      encryption: p.KmsKeyId ? `KMS ${readable(stack, p.KmsKeyId)}` : 'CloudWatch Logs service keys',
      retention: `${p.RetentionInDays !== undefined ? `${String(p.RetentionInDays)} days` : 'never expires'}; ${removal(group)}`,
    });
  });
}

/** A pool's passkeys: whether they are a first factor, count as MFA, verify the user, and their relying party. */
function passkeySummary(stack: StackTemplate, pool: TemplateResource): string {
  const passkeys = signInSettingsOf(pool).passkeys;
  if (!passkeys) return 'off: not a first factor';
  const p = props(pool);
  return [
    `first factor; ${passkeys.factorConfiguration} (${passkeysCountAsMfa(passkeys) ? 'a passkey sign-in counts as MFA' : 'a single factor: a passkey sign-in skips MFA'})`,
    `user verification ${passkeys.userVerification}`,
    `relying party ${readable(stack, p.WebAuthnRelyingPartyID) || "the user pool's domain (Cognito's default)"}`,
  ].join('; ');
}

function userPools(stack: StackTemplate): { stores: InventoryItem[]; identity: InventoryItem[] } {
  const stores: InventoryItem[] = [];
  const identity: InventoryItem[] = [];
  for (const [id, pool] of resourcesOfType(stack.template, 'AWS::Cognito::UserPool')) {
    const p = props(pool);
    const password = at(p, 'Policies', 'PasswordPolicy');
    const requires = ['Lowercase', 'Uppercase', 'Numbers', 'Symbols'].filter(
      (kind) => at(password, `Require${kind}`) === true,
    );
    stores.push(
      item(stack, 'Cognito user pool', id, {
        encryption: 'Cognito service encryption at rest',
        'deletion protection': yesNo(p.DeletionProtection, 'on', 'off'),
        retention: removal(pool),
      }),
    );
    identity.push(
      item(stack, 'User pool', id, {
        'MFA mode': `${readable(stack, p.MfaConfiguration) || 'OFF'} (${readableList(stack, p.EnabledMfas).join(', ') || 'no factor'})`,
        'password policy': `at least ${readable(stack, at(password, 'MinimumLength')) || '8'} characters${requires.length > 0 ? `, ${requires.join(', ').toLowerCase()}` : ''}; temporary passwords valid ${readable(stack, at(password, 'TemporaryPasswordValidityDays')) || '7'} days`,
        'self sign-up':
          at(p, 'AdminCreateUserConfig', 'AllowAdminCreateUserOnly') === true
            ? 'off (administrators create accounts)'
            : 'on',
        'feature plan': readable(stack, p.UserPoolTier) || 'ESSENTIALS (default)',
        'advanced security': readable(stack, at(p, 'UserPoolAddOns', 'AdvancedSecurityMode')) || 'off',
        'remembered devices': isRecord(p.DeviceConfiguration)
          ? `on (${at(p, 'DeviceConfiguration', 'DeviceOnlyRememberedOnUserPrompt') === true ? 'when the user asks' : 'every device'}): a remembered device skips the MFA code`
          : 'off: every sign-in asks for the MFA code',
        'first factors': firstFactorsOf(pool).join(', '),
        passkeys: passkeySummary(stack, pool),
        'sign-in statement': signInStatements(signInSettingsOf(pool)).join(' '),
        triggers: isRecord(p.LambdaConfig)
          ? Object.entries(p.LambdaConfig)
              .map(([trigger, target]) => `${trigger}: ${readable(stack, target)}`)
              .join(', ')
          : 'none',
        'Cognito self-service API (authenticator, devices)':
          readable(stack, at(p, 'LambdaConfig', 'PreTokenGenerationConfig', 'LambdaVersion')) === 'V2_0'
            ? 'tokens of a sign-in only: the pre token generation trigger (V2) suppresses aws.cognito.signin.user.admin in refreshed tokens'
            : 'every access token (aws.cognito.signin.user.admin in refreshed tokens too)',
      }),
    );
  }
  for (const [id, client] of resourcesOfType(stack.template, 'AWS::Cognito::UserPoolClient')) {
    const p = props(client);
    const unit = (token: string) =>
      readable(stack, at(p, 'TokenValidityUnits', token)) || (token === 'RefreshToken' ? 'days' : 'hours');
    identity.push(
      item(stack, 'App client', id, {
        'auth flows': readableList(stack, p.ExplicitAuthFlows).join(', '),
        secret: yesNo(p.GenerateSecret, 'generated', 'none (public client)'),
        'token lifetimes': `access ${readable(stack, p.AccessTokenValidity)} ${unit('AccessToken')}, ID ${readable(stack, p.IdTokenValidity)} ${unit('IdToken')}, refresh ${readable(stack, p.RefreshTokenValidity)} ${unit('RefreshToken')}`,
        'user-existence errors':
          readable(stack, p.PreventUserExistenceErrors) === 'ENABLED' ? 'prevented' : 'revealed (LEGACY)',
        'token revocation': yesNo(p.EnableTokenRevocation, 'on', 'off'),
      }),
    );
  }
  return { stores, identity };
}

/**
 * Every header a response headers policy sets: CloudFront's security headers and the custom
 * ones (Permissions-Policy and Cross-Origin-Opener-Policy are not among CloudFront's own).
 */
function securityHeaders(stack: StackTemplate, policyRef: unknown): string {
  const id = referencedId(policyRef);
  const policy = id ? at(stack.template.Resources[id]?.Properties, 'ResponseHeadersPolicyConfig') : undefined;
  if (!isRecord(policy)) return policyRef ? readable(stack, policyRef) : 'none';
  const config = isRecord(policy.SecurityHeadersConfig) ? policy.SecurityHeadersConfig : {};
  const hsts = config.StrictTransportSecurity;
  const xss = config.XSSProtection;
  const custom = (at(policy, 'CustomHeadersConfig', 'Items') as unknown[] | undefined) ?? [];
  return [
    at(config, 'ContentSecurityPolicy', 'ContentSecurityPolicy')
      ? `Content-Security-Policy: ${readable(stack, at(config, 'ContentSecurityPolicy', 'ContentSecurityPolicy'))}`
      : '',
    isRecord(hsts)
      ? `Strict-Transport-Security: max-age=${readable(stack, hsts.AccessControlMaxAgeSec)}${hsts.IncludeSubdomains ? '; includeSubDomains' : ''}${hsts.Preload ? '; preload' : ''}`
      : '',
    config.ContentTypeOptions ? 'X-Content-Type-Options: nosniff' : '',
    at(config, 'FrameOptions', 'FrameOption')
      ? `X-Frame-Options: ${readable(stack, at(config, 'FrameOptions', 'FrameOption'))}`
      : '',
    at(config, 'ReferrerPolicy', 'ReferrerPolicy')
      ? `Referrer-Policy: ${readable(stack, at(config, 'ReferrerPolicy', 'ReferrerPolicy'))}`
      : '',
    isRecord(xss)
      ? `X-XSS-Protection: ${xss.Protection === true ? `1${xss.ModeBlock === true ? '; mode=block' : xss.ReportUri ? `; report=${readable(stack, xss.ReportUri)}` : ''}` : '0'}`
      : '',
    ...custom.map((item) =>
      isRecord(item) ? `${readable(stack, item.Header)}: ${readable(stack, item.Value)}` : readable(stack, item),
    ),
  ]
    .filter(Boolean)
    .join(' · ');
}

function entryPoints(stack: StackTemplate): InventoryItem[] {
  const urls = resourcesOfType(stack.template, 'AWS::Lambda::Url').map(([id, url]) => {
    const p = props(url);
    const target =
      stack.template.Resources[String((at(p, 'TargetFunctionArn', 'Fn::GetAtt') as unknown[] | undefined)?.[0])];
    const features = at(target?.Properties, 'Environment', 'Variables', 'EMBED_DASHBOARD_FEATURES');
    return item(stack, 'Lambda function URL', id, {
      ...(typeof features === 'string'
        ? { 'embedded dashboard features on': features.split(',').join(', ') || 'none' }
        : {}),
      function: readable(stack, p.TargetFunctionArn),
      'auth type': readable(stack, p.AuthType),
      'CORS origins': readableList(stack, at(p, 'Cors', 'AllowOrigins')).join(', ') || 'none',
      'CORS methods': readableList(stack, at(p, 'Cors', 'AllowMethods')).join(', ') || 'none',
    });
  });
  const apis = resourcesOfType(stack.template, 'AWS::AppSync::GraphQLApi').map(([id, api]) => {
    const p = props(api);
    const extra = ((p.AdditionalAuthenticationProviders as unknown[] | undefined) ?? []).map((provider) =>
      readable(stack, at(provider, 'AuthenticationType')),
    );
    return item(stack, 'AppSync GraphQL API', id, {
      'auth modes': [readable(stack, p.AuthenticationType), ...extra].join(', '),
      'user pool': p.UserPoolConfig
        ? `${readable(stack, at(p, 'UserPoolConfig', 'UserPoolId'))}, clients ${readable(stack, at(p, 'UserPoolConfig', 'AppIdClientRegex'))}`
        : 'none',
      introspection: readable(stack, p.IntrospectionConfig) || 'ENABLED',
      logging: p.LogConfig ? `field level ${readable(stack, at(p, 'LogConfig', 'FieldLogLevel'))}` : 'off',
    });
  });
  const distributions = resourcesOfType(stack.template, 'AWS::CloudFront::Distribution').map(([id, distribution]) => {
    const config = at(props(distribution), 'DistributionConfig');
    const certificate = at(config, 'ViewerCertificate');
    return item(stack, 'CloudFront distribution', id, {
      aliases: readableList(stack, at(config, 'Aliases')).join(', ') || 'default *.cloudfront.net name',
      'TLS policy': certificate
        ? readable(stack, at(certificate, 'MinimumProtocolVersion')) || 'TLSv1 (CloudFront default)'
        : 'default certificate (TLSv1 floor of *.cloudfront.net)',
      'viewer protocol': readable(stack, at(config, 'DefaultCacheBehavior', 'ViewerProtocolPolicy')),
      'security headers': securityHeaders(stack, at(config, 'DefaultCacheBehavior', 'ResponseHeadersPolicyId')),
      'web ACL': readable(stack, at(config, 'WebACLId')) || 'none',
      'access logging': at(config, 'Logging') ? `to ${readable(stack, at(config, 'Logging', 'Bucket'))}` : 'off',
    });
  });
  const domains = resourcesOfType(stack.template, 'AWS::Cognito::UserPoolDomain').map(([id, domain]) =>
    item(stack, 'Cognito hosted domain', id, {
      domain: readable(stack, props(domain).Domain),
      'custom domain certificate':
        readable(stack, at(props(domain), 'CustomDomainConfig', 'CertificateArn')) ||
        'none (prefix domain on amazoncognito.com)',
    }),
  );
  return [...urls, ...apis, ...distributions, ...domains];
}

export function inventoryOf(stack: StackTemplate): Inventory {
  const pools = userPools(stack);
  return {
    dataStores: [...tables(stack), ...buckets(stack), ...logGroups(stack), ...pools.stores],
    entryPoints: entryPoints(stack),
    identity: pools.identity,
  };
}

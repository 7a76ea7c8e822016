import type { SynthesizedDeployment, TemplateValue } from './deployment.ts';

/**
 * Resolves CloudFormation intrinsics (Ref, Fn::GetAtt, Fn::Join, Fn::Sub, Fn::Select,
 * Fn::Split) against local values, as CloudFormation does against deployed resources.
 */

/** What a resource of the template is locally: its Ref and its attributes. */
export interface LocalResource {
  readonly ref: string;
  readonly attributes?: Readonly<Record<string, string>>;
}

export interface LocalValues {
  readonly region: string;
  readonly accountId: string;
  readonly stackName: string;
  readonly resources: Readonly<Record<string, LocalResource>>;
  /**
   * Resources without a local stand-in (log groups, the CDN...): in policies they resolve to
   * an ARN that names the logical ID and matches no local resource; elsewhere they are an
   * error, so that a variable a handler reads never holds a placeholder.
   */
  readonly unresolved: 'placeholder' | 'error';
}

class UnresolvableValueError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'UnresolvableValueError';
  }
}

function pseudoParameter(name: string, values: LocalValues): string | undefined {
  switch (name) {
    case 'AWS::Region':
      return values.region;
    case 'AWS::AccountId':
      return values.accountId;
    case 'AWS::Partition':
      return 'aws';
    case 'AWS::URLSuffix':
      return 'amazonaws.com';
    case 'AWS::StackName':
      return values.stackName;
    default:
      return undefined;
  }
}

function reference(logicalId: string, attribute: string | undefined, values: LocalValues): string {
  const resource = values.resources[logicalId];
  const found = attribute === undefined ? resource?.ref : resource?.attributes?.[attribute];
  if (found !== undefined) return found;
  const what = attribute === undefined ? `Ref ${logicalId}` : `Fn::GetAtt ${logicalId}.${attribute}`;
  if (values.unresolved === 'error') throw new UnresolvableValueError(`${what} has no local value`);
  return `arn:aws:cloudformation:${values.region}:${values.accountId}:local-unresolved/${logicalId}${attribute ? `/${attribute}` : ''}`;
}

const asString = (value: unknown, where: string): string => {
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  throw new UnresolvableValueError(`${where} expects a string, got ${JSON.stringify(value)}`);
};

function substitute(template: string, variables: Record<string, unknown>, values: LocalValues): string {
  return template.replace(/\$\{(!?)([^}]+)\}/g, (whole, literal: string, name: string) => {
    if (literal) return `\${${name}}`;
    if (name in variables) return asString(variables[name], `Fn::Sub variable ${name}`);
    const pseudo = pseudoParameter(name, values);
    if (pseudo !== undefined) return pseudo;
    const [logicalId, attribute] = name.split('.', 2) as [string, string | undefined];
    return reference(logicalId, attribute, values);
  });
}

export function resolveValue(value: TemplateValue, values: LocalValues): unknown {
  if (Array.isArray(value)) return value.map((item) => resolveValue(item, values));
  if (value === null || typeof value !== 'object') return value;
  const entries = Object.entries(value as Record<string, unknown>);
  if (entries.length !== 1 || !(entries[0]![0] === 'Ref' || entries[0]![0].startsWith('Fn::'))) {
    return Object.fromEntries(entries.map(([key, item]) => [key, resolveValue(item, values)]));
  }
  const [name, argument] = entries[0]!;
  switch (name) {
    case 'Ref': {
      const target = asString(argument, 'Ref');
      return pseudoParameter(target, values) ?? reference(target, undefined, values);
    }
    case 'Fn::GetAtt': {
      const [logicalId, attribute] = (typeof argument === 'string' ? argument.split('.', 2) : argument) as [
        string,
        string,
      ];
      return reference(logicalId, attribute, values);
    }
    case 'Fn::Join': {
      const [separator, parts] = argument as [string, unknown[]];
      const resolved = resolveValue(parts, values) as unknown[];
      return resolved.map((part) => asString(part, 'Fn::Join')).join(separator);
    }
    case 'Fn::Sub': {
      const [template, variables] =
        typeof argument === 'string' ? [argument, {}] : (argument as [string, Record<string, unknown>]);
      const resolvedVariables = resolveValue(variables, values) as Record<string, unknown>;
      return substitute(template, resolvedVariables, values);
    }
    case 'Fn::Select': {
      const [index, list] = argument as [unknown, unknown];
      const items = resolveValue(list, values) as unknown[];
      return items[Number(resolveValue(index, values))];
    }
    case 'Fn::Split': {
      const [separator, source] = argument as [string, unknown];
      return asString(resolveValue(source, values), 'Fn::Split').split(separator);
    }
    default:
      throw new UnresolvableValueError(`${name} is not an intrinsic local mode resolves`);
  }
}

/**
 * Host name the CDN's domain resolves to locally. The site's origin is `https://` plus that
 * domain in the template; local mode serves the site itself, at another origin, which
 * `withSiteOrigin` puts in its place.
 */
export const LOCAL_SITE_DOMAIN = 'site.local-distribution.invalid';

export const withSiteOrigin = (value: string, siteOrigin: string): string =>
  value.replaceAll(`https://${LOCAL_SITE_DOMAIN}`, siteOrigin);

export interface LocalStandIns {
  readonly region: string;
  readonly accountId: string;
  readonly userPoolId: string;
  readonly userPoolClientId: string;
  /** Local table name by table definition id (Views, Dashboards, ...). */
  readonly tableNames: Readonly<Record<string, string>>;
  /** The local S3 bucket standing for the template's rules bucket. */
  readonly companyRulesBucket: string;
  /** Name of the local role standing for the role QuickSight reads the rules with. */
  readonly companyRulesReadRole: string;
}

/**
 * Local names of the template's named-at-deployment resources: CloudFormation names them after
 * the stack and the logical id with a random suffix; local mode after the stack alone, so they
 * stay the same across restarts and syntheses.
 */
export function localResourceNames(stackName: string): { companyRulesBucket: string; companyRulesReadRole: string } {
  const bucketStem = stackName
    .toLowerCase()
    .replace(/[^a-z0-9-]+/g, '-')
    .replace(/^-+|-+$/g, '');
  return {
    // A bucket name is 3 to 63 lowercase letters, digits and hyphens.
    companyRulesBucket: `${bucketStem.slice(0, 63 - '-company-rules'.length)}-company-rules`,
    // A role name is at most 64 characters.
    companyRulesReadRole: `${stackName}-CompanyRulesQuickSightRead`.slice(0, 64),
  };
}

/** The local value of each resource the functions' environment and policies refer to. */
export function localResources(deployment: SynthesizedDeployment, local: LocalStandIns): Record<string, LocalResource> {
  const arn = (service: string, resource: string) =>
    `arn:aws:${service}:${local.region}:${local.accountId}:${resource}`;
  const { resources } = deployment;
  const result: Record<string, LocalResource> = {
    [resources.userPool]: {
      ref: local.userPoolId,
      attributes: {
        Arn: arn('cognito-idp', `userpool/${local.userPoolId}`),
        ProviderName: `cognito-idp.${local.region}.amazonaws.com/${local.userPoolId}`,
        ProviderURL: `https://cognito-idp.${local.region}.amazonaws.com/${local.userPoolId}`,
      },
    },
    [resources.userPoolClient]: { ref: local.userPoolClientId, attributes: { ClientId: local.userPoolClientId } },
    [resources.distribution]: { ref: 'ELOCALDISTRIBUTION', attributes: { DomainName: LOCAL_SITE_DOMAIN } },
    // S3 ARNs name neither region nor account.
    [resources.companyRulesBucket]: {
      ref: local.companyRulesBucket,
      attributes: { Arn: `arn:aws:s3:::${local.companyRulesBucket}` },
    },
    [resources.companyRulesReadRole]: {
      ref: local.companyRulesReadRole,
      attributes: { Arn: `arn:aws:iam::${local.accountId}:role/${local.companyRulesReadRole}` },
    },
  };
  for (const [id, logicalId] of Object.entries(resources.tables)) {
    const name = local.tableNames[id];
    if (!name) throw new Error(`No local table for the template's ${id} table`);
    result[logicalId] = { ref: name, attributes: { Arn: arn('dynamodb', `table/${name}`) } };
  }
  return result;
}

import { App, Stack } from 'aws-cdk-lib';
import type { Template } from 'aws-cdk-lib/assertions';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PortalNames } from '#lib/resource-names.ts';
import { buildPortal, sharedPortalBuild, logicalIdAt, type PortalBuild } from './support/portal-build.ts';
import { fromContext, problemsOf } from './support/config.ts';

const ACCOUNT = '111122223333';

/** A template value with `Ref`/`Fn::Join` rendered as CloudFormation would, for one account. */
function rendered(value: unknown): string {
  if (typeof value === 'string') return value;
  const node = value as { Ref?: string; 'Fn::Join'?: [string, unknown[]] };
  if (node.Ref === 'AWS::AccountId') return ACCOUNT;
  if (node['Fn::Join']) return node['Fn::Join'][1].map(rendered).join(node['Fn::Join'][0]);
  throw new Error(`Cannot render ${JSON.stringify(value)}`);
}

function onlyProperties(template: Template, type: string): Record<string, unknown> {
  const resources = Object.values(template.findResources(type));
  expect(resources, type).toHaveLength(1);
  return resources[0]!.Properties as Record<string, unknown>;
}

/**
 * The names that must not repeat within an account: CloudFront's for the whole account, the
 * others within a region (so they are keyed by it).
 */
function uniqueNames(build: PortalBuild): Record<string, string> {
  const { template, stack } = build;
  const headers = onlyProperties(template, 'AWS::CloudFront::ResponseHeadersPolicy').ResponseHeadersPolicyConfig as {
    Name: string;
  };
  const control = onlyProperties(template, 'AWS::CloudFront::OriginAccessControl').OriginAccessControlConfig as {
    Name: string;
  };
  const domain = onlyProperties(template, 'AWS::Cognito::UserPoolDomain').Domain;
  const inRegion = (name: string) => `${stack.region}/${name}`;
  return {
    responseHeadersPolicy: headers.Name,
    originAccessControl: control.Name,
    stack: inRegion(stack.stackName),
    cognitoDomain: inRegion(rendered(domain)),
    userPool: inRegion(String(onlyProperties(template, 'AWS::Cognito::UserPool').UserPoolName)),
    userPoolClient: inRegion(String(onlyProperties(template, 'AWS::Cognito::UserPoolClient').ClientName)),
    graphqlApi: inRegion(String(onlyProperties(template, 'AWS::AppSync::GraphQLApi').Name)),
  };
}

describe('environments and regions of one product in one account', () => {
  const deployments = [
    { environment: 'staging', region: 'us-east-2' },
    { environment: 'prod', region: 'us-east-2' },
    { environment: 'prod', region: 'eu-west-1' },
    { environment: undefined, region: 'eu-west-1' },
  ];
  let builds: PortalBuild[];
  let defaults: PortalBuild;
  beforeAll(() => {
    builds = deployments.map((context) => buildPortal({ context }));
    defaults = sharedPortalBuild();
  });
  afterAll(() => [...builds, defaults].forEach((build) => build.dispose()));

  it('synthesizes each with no account- or globally-unique name in common', () => {
    const seen = new Map<string, string>();
    for (const [index, build] of [...builds, defaults].entries()) {
      const label = index < builds.length ? JSON.stringify(deployments[index]) : 'default';
      for (const [kind, name] of Object.entries(uniqueNames(build))) {
        expect(seen.get(name), `${kind} ${name} of ${label}`).toBeUndefined();
        seen.set(name, `${kind} of ${label}`);
      }
    }
    expect(seen.size).toBe(7 * (deployments.length + 1));
  });

  it('names the stack and the Cognito resources after the environment', () => {
    const prod = builds[1]!;
    expect(prod.stack.stackName).toBe('TVIQ-prod-portal');
    expect(uniqueNames(prod)).toEqual({
      responseHeadersPolicy: 'TVIQ-prod-us-east-2-security-headers',
      originAccessControl: 'TVIQ-prod-us-east-2-site',
      stack: 'us-east-2/TVIQ-prod-portal',
      cognitoDomain: `us-east-2/tviq-prod-login-${ACCOUNT}`,
      userPool: 'us-east-2/TVIQ-prod-users',
      userPoolClient: 'us-east-2/TVIQ-prod-web',
      graphqlApi: 'us-east-2/TVIQ-prod-graphql',
    });
  });

  it('gives no role a fixed name and no log group a name that is not derived from a unique id', () => {
    for (const build of builds) {
      for (const role of Object.values(build.template.findResources('AWS::IAM::Role'))) {
        expect(role.Properties?.RoleName).toBeUndefined();
      }
      for (const group of Object.values(build.template.findResources('AWS::Logs::LogGroup'))) {
        const name = group.Properties?.LogGroupName as unknown;
        expect(name === undefined || typeof name === 'object', `log group name ${JSON.stringify(name)}`).toBe(true);
      }
    }
  });

  it('keeps the names of a deployment without environment, so it is not replaced', () => {
    expect(uniqueNames(defaults)).toMatchObject({
      stack: 'us-east-2/TVIQ-portal',
      cognitoDomain: `us-east-2/tviq-login-${ACCOUNT}`,
      userPool: 'us-east-2/TVIQ-users',
      userPoolClient: 'us-east-2/TVIQ-web',
      graphqlApi: 'us-east-2/TVIQ-graphql',
    });
  });

  it('renames the CloudFront policies in place: same resources, names that carry the region', () => {
    expect(uniqueNames(defaults)).toMatchObject({
      responseHeadersPolicy: 'TVIQ-us-east-2-security-headers',
      originAccessControl: 'TVIQ-us-east-2-site',
    });
    // The construct paths, and with them the logical ids, are those of earlier versions.
    expect(
      logicalIdAt(defaults.template, 'AWS::CloudFront::ResponseHeadersPolicy', '/Site/SecurityHeaders/'),
    ).toBeTruthy();
    expect(
      logicalIdAt(
        defaults.template,
        'AWS::CloudFront::OriginAccessControl',
        '/Site/Distribution/Origin1/S3OriginAccessControl/',
      ),
    ).toBeTruthy();
  });
});

describe('resource names at the services’ length limits', () => {
  const longest = { productName: 'A'.repeat(39) + 'x', environment: 'e'.repeat(15), region: 'ap-southeast-3' };
  const names = new PortalNames(longest);
  const sibling = new PortalNames({ ...longest, productName: 'A'.repeat(39) + 'y' });
  const stack = new Stack(new App(), 'Probe', { env: { account: ACCOUNT, region: longest.region } });
  const domainPrefix = (of: PortalNames) => String(stack.resolve(of.cognitoDomainPrefix(stack)));

  it('fits CloudFront and Cognito limits and keeps names of different products apart', () => {
    expect(names.originAccessControl.length).toBeLessThanOrEqual(64);
    expect(names.responseHeadersPolicy.length).toBeLessThanOrEqual(128);
    const prefix = domainPrefix(names);
    expect(prefix.length).toBeLessThanOrEqual(63);
    expect(prefix).toMatch(/^[a-z0-9](?:[a-z0-9-]*[a-z0-9])?$/);
    expect(prefix).not.toBe(domainPrefix(sibling));
    expect(names.originAccessControl).not.toBe(sibling.originAccessControl);
  });

  it('keeps the words Cognito reserves out of the domain prefix', () => {
    const prefix = domainPrefix(
      new PortalNames({ productName: 'Amazon Portal', environment: 'aws-dev', region: 'us-east-2' }),
    );
    expect(prefix).toBe(`x-portal-x-dev-login-${ACCOUNT}`);
  });
});

describe('per-environment context', () => {
  const context = {
    logRetentionDays: 365,
    environments: { staging: { logRetentionDays: 30, deletionProtection: false }, prod: {} },
  };

  it('merges the selected environment’s entry over the top-level values', () => {
    const staging = fromContext({ ...context, environment: 'staging' });
    expect(staging).toMatchObject({ environment: 'staging', logRetentionDays: 30, deletionProtection: false });
    expect(fromContext({ ...context, environment: 'prod' })).toMatchObject({
      logRetentionDays: 365,
      deletionProtection: true,
    });
    expect(fromContext(context)).toMatchObject({ environment: undefined, logRetentionDays: 365 });
  });

  it('refuses a malformed environment name, saying what a name looks like', () => {
    expect(problemsOf({ environment: 'Prod!' })).toEqual([
      'environment: must be 1-15 lowercase letters, digits or inner hyphens, starting with a letter, such as dev, staging or prod (got "Prod!")',
    ]);
    expect(problemsOf({ environment: 'staging-' })[0]).toMatch(/^environment: must be/);
  });

  it('refuses an environment that cdk.json does not list, naming those it does', () => {
    expect(problemsOf({ ...context, environment: 'prdo' })).toEqual([
      'environment: "prdo" has no entry under environments in cdk.json; expected one of staging, prod, or add "prdo": {} there',
    ]);
  });

  it('refuses an unknown key or a non-object in any environment’s entry', () => {
    const problems = problemsOf({ environments: { staging: { logRetentionDay: 30 }, prod: 'strict' } });
    expect(problems).toHaveLength(2);
    expect(problems[0]).toMatch(
      /^environments\.staging\.logRetentionDay: is not a configuration key; expected one of productName, region, /,
    );
    expect(problems[1]).toBe(
      'environments.prod: must be an object of context values, such as {"logRetentionDays": 90} (got "strict")',
    );
  });

  it('checks the values an environment brings like any other', () => {
    expect(
      problemsOf({ ...context, environment: 'staging', environments: { staging: { logRetentionDays: 31 } } })[0],
    ).toMatch(/^logRetentionDays: must be one of the CloudWatch Logs retention periods.*\(got 31\)$/);
  });
});

import { Fn, Stack } from 'aws-cdk-lib';
import type { Construct } from 'constructs';
import { createHash } from 'node:crypto';
import { portalStackName, productSlug, qualified } from './stack-names.ts';

/**
 * Names of the resources that must not collide when one product is deployed several times in
 * one account: per environment (dev, staging, prod) and per region. Without an environment the
 * stack, user pool, app client, API and Cognito domain keep the names they always had, so
 * existing deployments are not replaced. Roles and function log groups have no fixed names:
 * CloudFormation derives theirs from the stack name, which carries the environment.
 */
export interface NameScope {
  readonly productName: string;
  /** Deployment environment such as `staging`; none for a single deployment. */
  readonly environment?: string;
  readonly region: string;
}

/**
 * Shortens a name to a service's length limit. The cut-off part is replaced by a hash of the
 * whole name, so two long names that differ only at the end still differ.
 */
function fitName(name: string, maxLength: number): string {
  if (name.length <= maxLength) return name;
  const hash = createHash('sha256').update(name).digest('hex').slice(0, 8);
  return `${name.slice(0, maxLength - hash.length - 1)}-${hash}`;
}

/** CloudFront keeps response-headers-policy and origin-access-control names unique per account, across regions. */
const RESPONSE_HEADERS_POLICY_NAME_MAX = 128;
const ORIGIN_ACCESS_CONTROL_NAME_MAX = 64;
/** Cognito domain prefixes: at most 63 characters, unique among all accounts in a region. */
const COGNITO_DOMAIN_PREFIX_MAX = 63;
const ACCOUNT_ID_LENGTH = 12;

export class PortalNames {
  constructor(private readonly scope: NameScope) {}

  get stack(): string {
    return portalStackName(this.scope.productName, this.scope.environment);
  }

  /**
   * The us-east-1 companion stack of a deployment in another region (the site's CloudFront
   * alarm): it carries the portal's region, so two regions' companions coexist in us-east-1.
   */
  get edgeAlarmsStack(): string {
    return `${this.stack}-${this.scope.region}-edge-alarms`;
  }

  get userPool(): string {
    return `${qualified(this.scope)}-users`;
  }

  get userPoolClient(): string {
    return `${qualified(this.scope)}-web`;
  }

  get graphqlApi(): string {
    return `${qualified(this.scope)}-graphql`;
  }

  /**
   * CloudFront is global: a second region (or environment) of the product needs its own
   * policy names, so they always carry the region and the environment.
   */
  get responseHeadersPolicy(): string {
    return fitName(`${this.cloudFrontBase()}-security-headers`, RESPONSE_HEADERS_POLICY_NAME_MAX);
  }

  get originAccessControl(): string {
    return fitName(`${this.cloudFrontBase()}-site`, ORIGIN_ACCESS_CONTROL_NAME_MAX);
  }

  /**
   * `<product>-login-<account id>` or `<product>-<environment>-login-<account id>`, lowercase
   * and without the words Cognito reserves. The region is not part of it: the domain itself
   * (`<prefix>.auth.<region>.amazoncognito.com`) is per region.
   */
  cognitoDomainPrefix(construct: Construct): string {
    const base = qualified(this.scope)
      .toLowerCase()
      .replace(/aws|amazon|cognito/g, 'x')
      .replace(/[^a-z0-9]+/g, '-')
      .replace(/^-|-$/g, '');
    const room = COGNITO_DOMAIN_PREFIX_MAX - '-login-'.length - ACCOUNT_ID_LENGTH;
    return Fn.join('-', [fitName(base, room), 'login', Stack.of(construct).account]);
  }

  private cloudFrontBase(): string {
    return `${productSlug(qualified(this.scope))}-${this.scope.region}`;
  }
}

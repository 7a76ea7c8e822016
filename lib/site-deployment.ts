import { Duration, IgnoreMode, RemovalPolicy, Stack } from 'aws-cdk-lib';
import * as iam from 'aws-cdk-lib/aws-iam';
import * as logs from 'aws-cdk-lib/aws-logs';
import * as s3assets from 'aws-cdk-lib/aws-s3-assets';
import * as s3deploy from 'aws-cdk-lib/aws-s3-deployment';
import { Construct } from 'constructs';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { RuntimeConfig } from '#contracts/config.ts';
import { acknowledge, wildcardResourceFinding } from './compliance.ts';
import { connectSourcesOf, type PortalSite } from './site.ts';

export interface SiteDeploymentProps {
  readonly site: PortalSite;
  /** Directory of the built SPA (`web/dist`); must hold index.html. */
  readonly assetDirectory: string;
  /** Written to /config.json; values may be tokens resolved at deployment. */
  readonly runtimeConfig: RuntimeConfig;
  readonly logRetention: logs.RetentionDays;
}

/** Vite's hashed bundles: their names change with their content, so they are cached for a year. */
const HASHED_ASSETS_DIRECTORY = 'assets';
const HASHED_ASSETS = `${HASHED_ASSETS_DIRECTORY}/*`;

/** Construct id prefix of the deployment helper function aws-cdk-lib adds once per stack. */
const DEPLOYMENT_HANDLER_ID_PREFIX = 'Custom::CDKBucketDeployment';

/**
 * The built index.html with a Content-Security-Policy `<meta>` element whose connect-src
 * names exactly the given origins (values may be tokens, resolved at deployment). It goes
 * right after the charset declaration, or first in the head, before any script or stylesheet:
 * a policy in a `<meta>` element applies to what the page loads after it. The browser
 * enforces it together with the CSP header, so a connection must be allowed by both.
 */
function withConnectPolicy(html: string, connectSrc: readonly string[]): string {
  const policy = `connect-src 'self' ${connectSrc.join(' ')}`;
  if (/["<>&]/.test(policy))
    throw new Error(`SiteDeployment: the connect-src ${policy} cannot be written into an HTML attribute`);
  const anchor =
    /<meta\s+charset=[^>]*>/i.exec(html) ?? /<head(\s[^>]*)?>/i.exec(html) ?? /<!doctype html>/i.exec(html);
  if (!anchor)
    throw new Error('SiteDeployment: index.html has no charset declaration, head or doctype to put the CSP after');
  const at = anchor.index + anchor[0].length;
  if (/<(script|link|style)\b/i.test(html.slice(0, at)))
    throw new Error('SiteDeployment: index.html loads something before the place of the CSP');
  return `${html.slice(0, at)}<meta http-equiv="Content-Security-Policy" content="${policy}" />${html.slice(at)}`;
}

/**
 * Uploads the built SPA and a `config.json` made from the stack's outputs, then
 * invalidates CloudFront. index.html gets the exact connect-src of this deployment
 * (`withConnectPolicy`, from the same runtime configuration), which the site's CSP header
 * names only when it can (see `PortalSite.headerNamesEndpoints`). Hashed bundles are cached
 * for a year; everything else (index.html, config.json, files from `public/`) is revalidated
 * on each load so a deployment shows at once.
 *
 * The upload runs in aws-cdk-lib's deployment helper function. It gets a role of its own
 * whose customer-managed policy allows reading exactly this deployment's source objects,
 * writing the content bucket, and invalidating this distribution, instead of the helper's
 * default AWS-managed policy and wildcard grants.
 */
export class SiteDeployment extends Construct {
  constructor(scope: Construct, id: string, props: SiteDeploymentProps) {
    super(scope, id);
    if (!existsSync(join(props.assetDirectory, 'index.html'))) {
      throw new Error(
        `SiteDeployment: no index.html in ${props.assetDirectory}; build the web app first (npm run build:web)`,
      );
    }
    const { bucket, distribution } = props.site;
    // The SPA connects to exactly the addresses config.json gives it.
    props.site.connectTo(connectSourcesOf(props.runtimeConfig));
    const indexHtml = withConnectPolicy(
      readFileSync(join(props.assetDirectory, 'index.html'), 'utf8'),
      props.site.connectSources,
    );
    const logGroup = new logs.LogGroup(this, 'Logs', {
      retention: props.logRetention,
      removalPolicy: RemovalPolicy.DESTROY,
    });
    const role = new iam.Role(this, 'Role', {
      assumedBy: new iam.ServicePrincipal('lambda.amazonaws.com'),
      description: 'Uploads the portal site and invalidates its CloudFront cache during deployments',
    });
    const policy = new iam.ManagedPolicy(this, 'Policy', {
      description: 'Permissions of the site upload during deployments',
      roles: [role],
      statements: [
        new iam.PolicyStatement({
          sid: 'WriteOwnLogs',
          actions: ['logs:CreateLogStream', 'logs:PutLogEvents'],
          resources: [logGroup.logGroupArn],
        }),
        new iam.PolicyStatement({ sid: 'ListSiteContent', actions: ['s3:ListBucket'], resources: [bucket.bucketArn] }),
        new iam.PolicyStatement({
          sid: 'WriteSiteContent',
          actions: ['s3:GetObject', 's3:PutObject', 's3:DeleteObject', 's3:AbortMultipartUpload'],
          resources: [bucket.arnForObjects('*')],
        }),
        new iam.PolicyStatement({
          sid: 'InvalidateSiteCache',
          actions: ['cloudfront:CreateInvalidation', 'cloudfront:GetInvalidation'],
          resources: [
            Stack.of(this).formatArn({
              service: 'cloudfront',
              region: '',
              resource: 'distribution',
              resourceName: distribution.distributionId,
            }),
          ],
        }),
      ],
    });
    // Grants the helper would add itself are not applied to this role: the policy above is complete.
    const common = { destinationBucket: bucket, logGroup, memoryLimit: 512, role: role.withoutPolicyUpdates() };

    const hashed = new s3deploy.BucketDeployment(this, 'HashedAssets', {
      ...common,
      sources: [s3deploy.Source.asset(props.assetDirectory)],
      exclude: ['*'],
      include: [HASHED_ASSETS],
      // Bundles of the previous build stay: a page loaded before this deployment may still
      // load its lazy chunks. Their names never repeat, so nothing stale is served.
      prune: false,
      cacheControl: [
        s3deploy.CacheControl.setPublic(),
        s3deploy.CacheControl.maxAge(Duration.days(365)),
        s3deploy.CacheControl.immutable(),
      ],
    });
    const entryPoints = new s3deploy.BucketDeployment(this, 'EntryPoints', {
      ...common,
      sources: [
        // The build's index.html is replaced by the one with the CSP; hashed bundles come with the other deployment.
        s3deploy.Source.asset(props.assetDirectory, {
          exclude: ['/index.html', `/${HASHED_ASSETS_DIRECTORY}/`, '/.vite/'],
          ignoreMode: IgnoreMode.GIT,
        }),
        s3deploy.Source.jsonData('config.json', props.runtimeConfig),
        s3deploy.Source.data('index.html', indexHtml),
      ],
      // The build manifest serves the bundle benchmark, not browsers.
      exclude: [HASHED_ASSETS, '.vite/*'],
      cacheControl: [s3deploy.CacheControl.noCache()],
      distribution,
      distributionPaths: ['/*'],
    });
    // Entry points refer to the hashed bundles, so those are in place first.
    entryPoints.node.addDependency(hashed);

    // The source archives are known now: allow reading exactly those objects.
    const sourceObjects = this.node
      .findAll()
      .filter((child): child is s3assets.Asset => child instanceof s3assets.Asset)
      .map((asset) => asset.bucket.arnForObjects(asset.s3ObjectKey));
    policy.addStatements(
      new iam.PolicyStatement({ sid: 'ReadSourceArchives', actions: ['s3:GetObject'], resources: sourceObjects }),
    );
    for (const deployment of [hashed, entryPoints]) deployment.node.addDependency(policy);

    this.acknowledgeFindings(logGroup, policy, bucket.arnForObjects('*'));
  }

  private acknowledgeFindings(logGroup: logs.LogGroup, policy: iam.ManagedPolicy, siteObjects: string): void {
    acknowledge(policy, {
      [wildcardResourceFinding(this, siteObjects)]:
        'The upload writes and prunes the files of the built site, whose names change with every build, so it is allowed on the objects of the content bucket only. It runs only while CloudFormation deploys the stack and is not reachable otherwise.',
    });
    acknowledge(logGroup, {
      'NIST.800.53.R5-CloudWatchLogGroupEncrypted':
        'CloudWatch Logs encrypts every log group at rest with service-managed AES-256 keys. This group holds only the upload helper’s progress messages (file names of the public site), no user data or secrets.',
    });
    const stack = Stack.of(this);
    const helpers = stack.node.children.filter((child) => child.node.id.startsWith(DEPLOYMENT_HANDLER_ID_PREFIX));
    if (helpers.length === 0)
      throw new Error('SiteDeployment: the aws-cdk-lib deployment helper function was not found');
    for (const helper of helpers) {
      acknowledge(helper, {
        'AwsSolutions-L1':
          'This is the deployment helper function of aws-cdk-lib (Custom::CDKBucketDeployment). Its runtime is chosen and upgraded by aws-cdk-lib together with its code, which is tested against that runtime; it runs only while CloudFormation deploys the stack and has no public endpoint.',
        'NIST.800.53.R5-LambdaConcurrency':
          'The deployment helper runs only while CloudFormation deploys the stack, once per site deployment; it has no public endpoint, so no external load can reach it.',
        'NIST.800.53.R5-LambdaDLQ':
          'CloudFormation invokes the deployment helper as a custom resource and waits for its answer; a failure fails and rolls back the deployment, so there is no lost event for a dead-letter queue to keep.',
        'NIST.800.53.R5-LambdaInsideVPC':
          'The deployment helper talks only to the public S3 and CloudFront endpoints and to CloudFormation’s response URL over TLS; it touches no private network resource.',
      });
    }
  }
}

import { Duration, Fn, Lazy, RemovalPolicy, Token } from 'aws-cdk-lib';
import * as acm from 'aws-cdk-lib/aws-certificatemanager';
import * as cloudfront from 'aws-cdk-lib/aws-cloudfront';
import * as origins from 'aws-cdk-lib/aws-cloudfront-origins';
import * as s3 from 'aws-cdk-lib/aws-s3';
import { Construct } from 'constructs';
import type { RuntimeConfig } from '#contracts/config.ts';
import {
  contentSecurityPolicy,
  customSecurityHeaders,
  HSTS_MAX_AGE_SECONDS,
  REFERRER_POLICY,
  type CspSources,
} from '#contracts/security-headers.ts';
import { acknowledge } from './compliance.ts';

export interface PortalSiteProps {
  /**
   * Regional sources of the CSP (see `cspSourcesForRegion`): the frames it allows, and the
   * connections the header allows while the site's own origin is not known at synth.
   */
  readonly csp: CspSources;
  /** Custom domain and its us-east-1 certificate; both or neither. */
  readonly domainName?: string;
  readonly certificateArn?: string;
  /** WAF web ACL (CLOUDFRONT scope) to attach to the distribution. */
  readonly webAclArn?: string;
  /** Days the access logs are kept. */
  readonly logRetentionDays: number;
  /**
   * Names of the response headers policy and the origin access control. CloudFront keeps
   * both unique per account across all regions (see `PortalNames`).
   */
  readonly responseHeadersPolicyName: string;
  readonly originAccessControlName: string;
}

/**
 * Regional sources of the site's Content-Security-Policy in AWS: QuickSight's embedding
 * host for frames, and for connections Cognito's endpoint and the AppSync and function URL
 * hosts of the region. The header names these connection hosts only when it cannot name the
 * deployment's own endpoints (see `PortalSite`); the page itself then narrows them.
 */
export function cspSourcesForRegion(region: string): CspSources {
  return {
    connectSrc: [
      cognitoOrigin(region),
      `https://*.appsync-api.${region}.amazonaws.com`,
      `https://*.lambda-url.${region}.on.aws`,
    ],
    // GenerateEmbedUrlForRegisteredUser returns https://<region>.quicksight.aws.amazon.com/embed/...
    frameSrc: [`https://${region}.quicksight.aws.amazon.com`],
  };
}

/** Cognito's regional endpoint, which the SPA's identity client calls. */
function cognitoOrigin(region: string): string {
  return `https://cognito-idp.${region}.amazonaws.com`;
}

/**
 * The origin (`https://host`) of an https URL. On a URL known only at deployment (a function
 * URL or AppSync's GraphQL URL attribute) it is `https://` and the third `/`-separated part
 * of the URL, which CloudFormation works out with `Fn::Select`/`Fn::Split`.
 */
function originOf(url: string): string {
  if (!Token.isUnresolved(url)) return new URL(url).origin;
  return `https://${Fn.select(2, Fn.split('/', url))}`;
}

/**
 * The exact origins the SPA connects to, taken from the runtime configuration it is given:
 * Cognito's endpoint, this deployment's AppSync API and each of its function URLs.
 */
export function connectSourcesOf(config: RuntimeConfig): string[] {
  return [
    config.cognitoEndpoint ? originOf(config.cognitoEndpoint) : cognitoOrigin(config.region),
    originOf(config.graphqlUrl),
    ...Object.values(config.functions).map(originOf),
  ];
}

function referrerPolicy(value: string): cloudfront.HeadersReferrerPolicy {
  const policy = Object.values(cloudfront.HeadersReferrerPolicy).find((candidate) => candidate === value);
  if (!policy) throw new Error(`CloudFront has no referrer policy ${value}`);
  return policy;
}

/**
 * Hosting of the SPA: a private, versioned S3 bucket (all public access blocked, TLS
 * enforced, access logged) read by CloudFront through origin access control, with the
 * security headers of `contracts/security-headers.ts`, SPA routing to index.html and an
 * optional custom domain on TLS 1.2 or later.
 */
export class PortalSite extends Construct {
  readonly bucket: s3.Bucket;
  readonly logBucket: s3.Bucket;
  readonly distribution: cloudfront.Distribution;
  readonly headers: cloudfront.ResponseHeadersPolicy;
  /**
   * The host users open the portal at: the custom domain, else the distribution's domain name
   * (known at deployment only). The passkey relying party of the user pool.
   */
  readonly domainName: string;
  /** The origin users open the portal at (https://<domain>). */
  readonly origin: string;
  /**
   * Whether the CSP header names the deployment's exact endpoints. It can when the site's
   * origin is a custom domain, known at synth. Otherwise the origin is the distribution's
   * domain name, which the function URLs' CORS settings and the user pool's messages refer to;
   * endpoints in the header would make the distribution wait for the function URLs and the
   * AppSync API (behind the user pool), which wait for it: a dependency cycle CloudFormation
   * refuses. The header then keeps the regional hosts, and `SiteDeployment` writes the exact
   * connect-src into index.html, where the browser enforces both policies together.
   */
  readonly headerNamesEndpoints: boolean;
  private endpoints?: readonly string[];

  constructor(scope: Construct, id: string, props: PortalSiteProps) {
    super(scope, id);
    if (Boolean(props.domainName) !== Boolean(props.certificateArn)) {
      throw new Error('PortalSite: domainName and certificateArn go together (both or neither)');
    }
    this.headerNamesEndpoints = props.domainName !== undefined;

    // CloudFront standard logging writes through ACLs, so this bucket lets object writers own their objects.
    this.logBucket = new s3.Bucket(this, 'AccessLogs', {
      blockPublicAccess: s3.BlockPublicAccess.BLOCK_ALL,
      encryption: s3.BucketEncryption.S3_MANAGED,
      enforceSSL: true,
      versioned: true,
      objectOwnership: s3.ObjectOwnership.OBJECT_WRITER,
      lifecycleRules: [
        { expiration: Duration.days(props.logRetentionDays), noncurrentVersionExpiration: Duration.days(1) },
      ],
      removalPolicy: RemovalPolicy.RETAIN,
    });

    this.bucket = new s3.Bucket(this, 'Content', {
      blockPublicAccess: s3.BlockPublicAccess.BLOCK_ALL,
      encryption: s3.BucketEncryption.S3_MANAGED,
      enforceSSL: true,
      versioned: true,
      objectOwnership: s3.ObjectOwnership.BUCKET_OWNER_ENFORCED,
      serverAccessLogsBucket: this.logBucket,
      serverAccessLogsPrefix: 's3/',
      lifecycleRules: [{ noncurrentVersionExpiration: Duration.days(30) }],
      removalPolicy: RemovalPolicy.RETAIN,
    });

    this.headers = new cloudfront.ResponseHeadersPolicy(this, 'SecurityHeaders', {
      responseHeadersPolicyName: props.responseHeadersPolicyName,
      comment: 'CSP, HSTS, nosniff, frame, referrer, permissions and opener policies of the portal',
      securityHeadersBehavior: {
        contentSecurityPolicy: {
          contentSecurityPolicy: Lazy.string({
            produce: () =>
              contentSecurityPolicy(
                this.headerNamesEndpoints ? { ...props.csp, connectSrc: this.connectSources } : props.csp,
              ),
          }),
          override: true,
        },
        strictTransportSecurity: {
          accessControlMaxAge: Duration.seconds(HSTS_MAX_AGE_SECONDS),
          includeSubdomains: true,
          override: true,
        },
        contentTypeOptions: { override: true },
        frameOptions: { frameOption: cloudfront.HeadersFrameOption.DENY, override: true },
        referrerPolicy: { referrerPolicy: referrerPolicy(REFERRER_POLICY), override: true },
      },
      customHeadersBehavior: {
        customHeaders: Object.entries(customSecurityHeaders(props.csp)).map(([header, value]) => ({
          header,
          value,
          override: true,
        })),
      },
    });

    // The SPA routes on the client: a path with no object behind it gets index.html.
    // Without s3:ListBucket, S3 answers a missing key with 403, so both codes map.
    const spaFallback = (httpStatus: number): cloudfront.ErrorResponse => ({
      httpStatus,
      responseHttpStatus: 200,
      responsePagePath: '/index.html',
      ttl: Duration.seconds(0),
    });

    this.distribution = new cloudfront.Distribution(this, 'Distribution', {
      comment: 'Analytics portal',
      defaultRootObject: 'index.html',
      defaultBehavior: {
        origin: origins.S3BucketOrigin.withOriginAccessControl(this.bucket),
        viewerProtocolPolicy: cloudfront.ViewerProtocolPolicy.REDIRECT_TO_HTTPS,
        allowedMethods: cloudfront.AllowedMethods.ALLOW_GET_HEAD,
        cachePolicy: cloudfront.CachePolicy.CACHING_OPTIMIZED,
        responseHeadersPolicy: this.headers,
        compress: true,
      },
      errorResponses: [spaFallback(403), spaFallback(404)],
      httpVersion: cloudfront.HttpVersion.HTTP2_AND_3,
      // A security policy applies only to a custom certificate; the default one is fixed by CloudFront.
      ...(props.domainName && props.certificateArn
        ? {
            domainNames: [props.domainName],
            certificate: acm.Certificate.fromCertificateArn(this, 'Certificate', props.certificateArn),
            minimumProtocolVersion: cloudfront.SecurityPolicyProtocol.TLS_V1_2_2021,
          }
        : {}),
      webAclId: props.webAclArn,
      enableLogging: true,
      logBucket: this.logBucket,
      logFilePrefix: 'cloudfront/',
    });
    this.domainName = props.domainName ?? this.distribution.distributionDomainName;
    this.origin = `https://${this.domainName}`;
    this.nameOriginAccessControl(props.originAccessControlName);

    this.acknowledgeFindings(props);
  }

  /**
   * Gives the exact origins the SPA connects to (`connectSourcesOf`, called by
   * `SiteDeployment` with the runtime configuration it writes): the CSP header names them
   * when `headerNamesEndpoints`, index.html always. Called once.
   */
  connectTo(sources: readonly string[]): void {
    if (this.endpoints) throw new Error('PortalSite: connectTo was already called');
    if (sources.length === 0) throw new Error('PortalSite: connectTo needs the origins the SPA connects to');
    this.endpoints = [...sources];
  }

  /** The exact origins given to `connectTo`. */
  get connectSources(): readonly string[] {
    if (!this.endpoints)
      throw new Error('PortalSite: connectTo was not called; the CSP needs the addresses the SPA connects to');
    return this.endpoints;
  }

  /**
   * The origin access control is the one `withOriginAccessControl` creates; it is renamed
   * rather than replaced by one of our own, so a deployed stack updates it in place.
   */
  private nameOriginAccessControl(name: string): void {
    const controls = this.distribution.node
      .findAll()
      .filter((child) => child instanceof cloudfront.CfnOriginAccessControl);
    if (controls.length !== 1)
      throw new Error(`PortalSite: expected one origin access control, found ${controls.length}`);
    controls[0]!.addPropertyOverride('OriginAccessControlConfig.Name', name);
  }

  private acknowledgeFindings(props: PortalSiteProps): void {
    const logBucketItself =
      'This is the access-log bucket itself (target of the content bucket’s server access logs and of CloudFront’s logs). Logging it into itself would create a feedback loop; access to it is limited to the log delivery services and the account, with TLS enforced.';
    acknowledge(this.logBucket, {
      'AwsSolutions-S1': logBucketItself,
      'NIST.800.53.R5-S3BucketLoggingEnabled': logBucketItself,
      'NIST.800.53.R5-S3DefaultEncryptionKMS':
        'S3 server access logging and CloudFront standard logging deliver only to buckets encrypted with S3-managed keys (SSE-S3, AES-256); SSE-KMS is not supported for these log destinations.',
      'NIST.800.53.R5-S3BucketReplicationEnabled':
        'The bucket holds access logs kept for the configured retention period and is versioned. Cross-region replication would duplicate short-lived operational records; the account owner can add organization-wide log archiving without changing this stack.',
    });
    acknowledge(this.bucket, {
      'NIST.800.53.R5-S3DefaultEncryptionKMS':
        'The bucket holds only the built single-page application, which every visitor downloads through CloudFront; it contains no data of the product or its users. Objects are encrypted at rest with S3-managed keys (SSE-S3, AES-256); a customer-managed KMS key would protect nothing that is not already public by design.',
      'NIST.800.53.R5-S3BucketReplicationEnabled':
        'The bucket is versioned and its content is rebuilt from source and uploaded on every deployment, so it can be restored anywhere at any time; CloudFront already serves it from edge caches worldwide.',
    });
    acknowledge(this.distribution, {
      'AwsSolutions-CFR1':
        'The portal serves manufacturers, distributors and their owners in any country; access is controlled by authentication (password and mandatory TOTP), not by location. The distribution serves only the public single-page application.',
      ...(props.webAclArn
        ? {}
        : {
            'AwsSolutions-CFR2':
              'The distribution serves only static, public application files from a private bucket; no request to it reaches application logic or data. The APIs (function URLs, AppSync, Cognito) authenticate every request themselves. A web ACL with CLOUDFRONT scope must live in us-east-1 and can be attached by setting the webAclArn configuration value.',
          }),
      ...(props.domainName
        ? {}
        : {
            'AwsSolutions-CFR4':
              'Without a custom domain the distribution uses the default *.cloudfront.net certificate, whose security policy CloudFront fixes (TLSv1) and does not allow to be raised. Browsers negotiate TLS 1.2 or 1.3 with it. Setting domainName and certificateArn applies the TLSv1.2_2021 policy.',
          }),
    });
  }
}

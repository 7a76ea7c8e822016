import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Capture, Match } from 'aws-cdk-lib/assertions';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { contentSecurityPolicy, securityHeaders } from '#contracts/security-headers.ts';
import { cspSourcesForRegion } from '#lib/site.ts';
import { buildPortal, sharedPortalBuild, logicalIdAt, type PortalBuild } from './support/portal-build.ts';
import { dependencies, findCycle, type TemplateResources } from './support/template-graph.ts';

const ALL_PUBLIC_ACCESS_BLOCKED = {
  BlockPublicAcls: true,
  BlockPublicPolicy: true,
  IgnorePublicAcls: true,
  RestrictPublicBuckets: true,
};

const REGION = 'us-east-2';
type Resources = Record<string, { Type: string; Properties?: Record<string, unknown> }>;

/** Addresses CloudFormation would give this stack's endpoints: made up, one per resource. */
const functionUrlOf = (id: string) => `https://${id.toLowerCase()}.lambda-url.${REGION}.on.aws/`;
const graphqlUrlOf = (id: string) => `https://${id.toLowerCase()}.appsync-api.${REGION}.amazonaws.com/graphql`;

/** What CloudFormation makes of a value with intrinsic functions, given the addresses above. */
function evaluate(node: unknown, resources: Resources): unknown {
  if (typeof node === 'string' || typeof node === 'number') return node;
  if (Array.isArray(node)) return node.map((item) => evaluate(item, resources));
  const entries = Object.entries(node as Record<string, unknown>);
  if (entries.length === 1) {
    const [[fn, args]] = entries as [[string, unknown]];
    const list = Array.isArray(args) ? args : [];
    if (fn === 'Ref' && args === 'AWS::Region') return REGION;
    if (fn === 'Fn::GetAtt') {
      const [id, attribute] = list.map(String);
      const type = resources[id ?? '']?.Type;
      if (type === 'AWS::Lambda::Url' && attribute === 'FunctionUrl') return functionUrlOf(id!);
      if (type === 'AWS::AppSync::GraphQLApi' && attribute === 'GraphQLUrl') return graphqlUrlOf(id!);
    }
    if (fn === 'Fn::Join') return (evaluate(list[1], resources) as unknown[]).join(String(list[0]));
    if (fn === 'Fn::Split') return String(evaluate(list[1], resources)).split(String(list[0]));
    if (fn === 'Fn::Select') return (evaluate(list[1], resources) as unknown[])[Number(list[0])];
  }
  throw new Error(`cannot evaluate ${JSON.stringify(node)}`);
}

/** The origins the SPA connects to in this stack: Cognito's endpoint, the AppSync API and the five function URLs. */
function endpointOrigins(resources: Resources): string[] {
  const ofType = (type: string) => Object.keys(resources).filter((id) => resources[id]!.Type === type);
  const functionUrls = ofType('AWS::Lambda::Url').map((id) => new URL(functionUrlOf(id)).origin);
  const apis = ofType('AWS::AppSync::GraphQLApi').map((id) => new URL(graphqlUrlOf(id)).origin);
  expect(functionUrls).toHaveLength(5);
  expect(apis).toHaveLength(1);
  return [`https://cognito-idp.${REGION}.amazonaws.com`, ...apis, ...functionUrls];
}

/** The sources of a policy's connect-src. */
function connectSrc(policy: string): string[] {
  const directive = policy
    .split(';')
    .map((d) => d.trim().split(/\s+/))
    .find(([name]) => name === 'connect-src');
  if (!directive) throw new Error(`no connect-src in ${policy}`);
  return directive.slice(1);
}

/** Whether a CSP host source (`https://host`, `https://*.domain`) admits an origin. */
const admits = (source: string, origin: string) =>
  source === origin ||
  (source.startsWith('https://*.') &&
    origin.startsWith('https://') &&
    origin.endsWith(source.slice('https://*'.length)));

/** The CSP the response headers policy sends, evaluated. */
function headerPolicy(build: PortalBuild): string {
  const resources = build.template.toJSON().Resources as Resources;
  const id = logicalIdAt(build.template, 'AWS::CloudFront::ResponseHeadersPolicy', '/Site/SecurityHeaders/');
  const config = resources[id]!.Properties!.ResponseHeadersPolicyConfig as {
    SecurityHeadersConfig: { ContentSecurityPolicy: { ContentSecurityPolicy: unknown } };
  };
  return String(evaluate(config.SecurityHeadersConfig.ContentSecurityPolicy.ContentSecurityPolicy, resources));
}

/** index.html as the deployment writes it to the bucket: the staged file with its deploy-time values filled in. */
function deployedIndexHtml(build: PortalBuild): string {
  const resources = build.template.toJSON().Resources as Resources;
  const id = logicalIdAt(build.template, 'Custom::CDKBucketDeployment', '/SiteDeployment/EntryPoints/');
  const props = resources[id]!.Properties as { SourceObjectKeys: string[]; SourceMarkers?: Record<string, unknown>[] };
  const pages = props.SourceObjectKeys.map((key, index) => ({
    path: join(build.outdir, `asset.${key.replace(/\.zip$/, '')}`, 'index.html'),
    markers: props.SourceMarkers?.[index] ?? {},
  })).filter((page) => existsSync(page.path));
  expect(pages).toHaveLength(1);
  let html = readFileSync(pages[0]!.path, 'utf8');
  for (const [marker, value] of Object.entries(pages[0]!.markers))
    html = html.split(marker).join(String(evaluate(value, resources)));
  return html;
}

/** The CSP of index.html's `<meta http-equiv>` element, and whether it comes before every script. */
function metaPolicy(html: string): { policy: string; beforeScripts: boolean } {
  const meta = /<meta http-equiv="Content-Security-Policy" content="([^"]*)"/i.exec(html);
  if (!meta) throw new Error(`index.html has no CSP meta element: ${html}`);
  return { policy: meta[1]!, beforeScripts: meta.index < html.search(/<script\b/i) };
}

/** The connect-src checks: exactly this stack's endpoints, no wildcard host. */
function expectExactConnectSrc(sources: string[], resources: Resources): void {
  for (const source of sources) expect(source, 'a wildcard host in connect-src').not.toContain('*');
  expect([...sources].sort()).toEqual(["'self'", ...endpointOrigins(resources)].sort());
}

describe('site (S3 + CloudFront)', () => {
  let build: PortalBuild;
  let contentBucket: string;
  let logBucket: string;
  let distribution: string;
  beforeAll(() => {
    build = sharedPortalBuild();
    contentBucket = logicalIdAt(build.template, 'AWS::S3::Bucket', '/Site/Content/');
    logBucket = logicalIdAt(build.template, 'AWS::S3::Bucket', '/Site/AccessLogs/');
    distribution = logicalIdAt(build.template, 'AWS::CloudFront::Distribution', '/Site/Distribution/');
  });
  afterAll(() => build.dispose());

  it('blocks all public access on every bucket, encrypts and versions them', () => {
    const buckets = Object.values(build.template.findResources('AWS::S3::Bucket'));
    // The site's content, its access logs, and the row-level-security rules (test/infra/companies.test.ts).
    expect(buckets).toHaveLength(3);
    for (const bucket of buckets) {
      expect(bucket.Properties).toMatchObject({
        PublicAccessBlockConfiguration: ALL_PUBLIC_ACCESS_BLOCKED,
        BucketEncryption: {
          ServerSideEncryptionConfiguration: [{ ServerSideEncryptionByDefault: { SSEAlgorithm: 'AES256' } }],
        },
        VersioningConfiguration: { Status: 'Enabled' },
      });
    }
  });

  it('refuses every request without TLS on every bucket', () => {
    for (const bucket of [contentBucket, logBucket]) {
      build.template.hasResourceProperties('AWS::S3::BucketPolicy', {
        Bucket: { Ref: bucket },
        PolicyDocument: {
          Statement: Match.arrayWith([
            Match.objectLike({
              Effect: 'Deny',
              Action: 's3:*',
              Principal: { AWS: '*' },
              Condition: { Bool: { 'aws:SecureTransport': 'false' } },
            }),
          ]),
        },
      });
    }
  });

  it('logs access to the content bucket and to the distribution', () => {
    build.template.hasResourceProperties('AWS::S3::Bucket', {
      LoggingConfiguration: { DestinationBucketName: { Ref: logBucket }, LogFilePrefix: 's3/' },
    });
    build.template.hasResourceProperties('AWS::CloudFront::Distribution', {
      DistributionConfig: Match.objectLike({
        Logging: { Bucket: { 'Fn::GetAtt': [logBucket, 'RegionalDomainName'] }, Prefix: 'cloudfront/' },
      }),
    });
  });

  it('reads the private bucket through origin access control, for this distribution only', () => {
    const oac = new Capture();
    build.template.hasResourceProperties('AWS::CloudFront::OriginAccessControl', {
      OriginAccessControlConfig: {
        OriginAccessControlOriginType: 's3',
        SigningBehavior: 'always',
        SigningProtocol: 'sigv4',
        Name: Match.anyValue(),
      },
    });
    build.template.hasResourceProperties('AWS::CloudFront::Distribution', {
      DistributionConfig: Match.objectLike({
        Origins: [
          Match.objectLike({
            DomainName: { 'Fn::GetAtt': [contentBucket, 'RegionalDomainName'] },
            OriginAccessControlId: { 'Fn::GetAtt': [oac, 'Id'] },
            S3OriginConfig: { OriginAccessIdentity: '' },
          }),
        ],
      }),
    });
    expect(build.template.toJSON().Resources[oac.asString()].Type).toBe('AWS::CloudFront::OriginAccessControl');
    build.template.hasResourceProperties('AWS::S3::BucketPolicy', {
      Bucket: { Ref: contentBucket },
      PolicyDocument: {
        Statement: Match.arrayWith([
          Match.objectLike({
            Effect: 'Allow',
            Action: 's3:GetObject',
            Principal: { Service: 'cloudfront.amazonaws.com' },
            Condition: {
              StringEquals: { 'AWS:SourceArn': { 'Fn::Join': ['', Match.arrayWith([{ Ref: distribution }])] } },
            },
          }),
        ]),
      },
    });
  });

  it('sends the security headers: CSP, HSTS of two years (max-age=63072000) with subdomains, nosniff, frame and referrer policies', () => {
    const csp = new Capture();
    const hstsMaxAge = new Capture();
    build.template.hasResourceProperties('AWS::CloudFront::ResponseHeadersPolicy', {
      ResponseHeadersPolicyConfig: Match.objectLike({
        SecurityHeadersConfig: {
          ContentSecurityPolicy: { ContentSecurityPolicy: csp, Override: true },
          StrictTransportSecurity: { AccessControlMaxAgeSec: hstsMaxAge, IncludeSubdomains: true, Override: true },
          ContentTypeOptions: { Override: true },
          FrameOptions: { FrameOption: 'DENY', Override: true },
          ReferrerPolicy: { ReferrerPolicy: 'strict-origin-when-cross-origin', Override: true },
        },
      }),
    });
    // Two years, the max-age the HSTS preload list asks for (https://hstspreload.org/#deployment-recommendations).
    expect(hstsMaxAge.asNumber()).toBe(63_072_000);
    const directives = new Map(
      csp
        .asString()
        .split(';')
        .map((d) => d.trim().split(/\s+/))
        .map(([name, ...values]) => [name, values]),
    );
    expect(directives.get('default-src')).toEqual(["'self'"]);
    // Without a custom domain the header keeps the regional hosts (naming the endpoints would
    // make a dependency cycle, see PortalSite.headerNamesEndpoints); index.html narrows them (below).
    expect(directives.get('connect-src')).toEqual([
      "'self'",
      'https://cognito-idp.us-east-2.amazonaws.com',
      'https://*.appsync-api.us-east-2.amazonaws.com',
      'https://*.lambda-url.us-east-2.on.aws',
    ]);
    expect(directives.get('frame-src')).toEqual(['https://us-east-2.quicksight.aws.amazon.com']);
    expect(directives.get('img-src')).toEqual(["'self'", 'data:']);
    expect(directives.get('object-src')).toEqual(["'none'"]);
    expect(directives.get('base-uri')).toEqual(["'none'"]);
    expect(directives.get('frame-ancestors')).toEqual(["'none'"]);
    // The same policy local mode serves, only with the regional AWS addresses.
    expect(csp.asString()).toBe(contentSecurityPolicy(cspSourcesForRegion('us-east-2')));
  });

  it("writes a CSP into index.html whose connect-src names exactly this stack's Cognito, AppSync and function URL origins", () => {
    const resources = build.template.toJSON().Resources as Resources;
    const { policy, beforeScripts } = metaPolicy(deployedIndexHtml(build));
    expect(policy.startsWith('connect-src ')).toBe(true);
    expectExactConnectSrc(connectSrc(policy), resources);
    expect(beforeScripts).toBe(true);
    // The browser enforces the header and the page's policy together: the header admits each
    // of these origins, so the page's list is what the SPA can reach.
    const header = connectSrc(headerPolicy(build));
    for (const origin of connectSrc(policy))
      expect(
        header.some((source) => admits(source, origin)),
        origin,
      ).toBe(true);
  });

  it('turns off powerful browser features, keeps fullscreen for the dashboard frame, and isolates the window (COOP)', () => {
    const custom = new Capture();
    build.template.hasResourceProperties('AWS::CloudFront::ResponseHeadersPolicy', {
      ResponseHeadersPolicyConfig: Match.objectLike({ CustomHeadersConfig: { Items: custom } }),
    });
    const items = custom.asArray() as { Header: string; Value: string; Override: boolean }[];
    const headers = new Map(items.map((item) => [item.Header, item]));
    expect(headers.get('Cross-Origin-Opener-Policy')).toEqual({
      Header: 'Cross-Origin-Opener-Policy',
      Value: 'same-origin',
      Override: true,
    });
    const permissions = headers.get('Permissions-Policy');
    expect(permissions?.Override).toBe(true);
    const features = new Map(permissions!.Value.split(', ').map((entry) => entry.split('=') as [string, string]));
    for (const feature of ['camera', 'microphone', 'geolocation', 'payment', 'usb', 'serial', 'display-capture']) {
      expect(features.get(feature), feature).toBe('()');
    }
    expect(features.get('fullscreen')).toBe('(self "https://us-east-2.quicksight.aws.amazon.com")');
    // The same values local mode serves, only with the regional AWS addresses.
    const shared = securityHeaders(cspSourcesForRegion('us-east-2'));
    expect(permissions?.Value).toBe(shared['Permissions-Policy']);
    expect(items).toHaveLength(2);
  });

  it('names only features Chromium recognises: an unknown one is logged as an error on every page', () => {
    // The features of Chromium's permissions_policy_features.json5 a portal might switch off.
    const recognised = new Set([
      'accelerometer',
      'ambient-light-sensor',
      'autoplay',
      'browsing-topics',
      'camera',
      'display-capture',
      'encrypted-media',
      'fullscreen',
      'gamepad',
      'geolocation',
      'gyroscope',
      'hid',
      'idle-detection',
      'local-fonts',
      'magnetometer',
      'microphone',
      'midi',
      'payment',
      'picture-in-picture',
      'screen-wake-lock',
      'serial',
      'usb',
      'window-management',
      'xr-spatial-tracking',
    ]);
    const policy = securityHeaders(cspSourcesForRegion('us-east-2'))['Permissions-Policy']!;
    const named = policy.split(', ').map((entry) => entry.split('=')[0]!);
    expect(named.filter((feature) => !recognised.has(feature))).toEqual([]);
    expect(named).not.toContain('bluetooth');
  });

  it('serves the SPA over HTTPS with the headers policy and routes unknown paths to index.html', () => {
    build.template.hasResourceProperties('AWS::CloudFront::Distribution', {
      DistributionConfig: Match.objectLike({
        DefaultRootObject: 'index.html',
        DefaultCacheBehavior: Match.objectLike({
          ViewerProtocolPolicy: 'redirect-to-https',
          AllowedMethods: ['GET', 'HEAD'],
          ResponseHeadersPolicyId: {
            Ref: logicalIdAt(build.template, 'AWS::CloudFront::ResponseHeadersPolicy', '/Site/SecurityHeaders/'),
          },
        }),
        CustomErrorResponses: [
          { ErrorCode: 403, ResponseCode: 200, ResponsePagePath: '/index.html', ErrorCachingMinTTL: 0 },
          { ErrorCode: 404, ResponseCode: 200, ResponsePagePath: '/index.html', ErrorCachingMinTTL: 0 },
        ],
        Aliases: Match.absent(),
        WebACLId: Match.absent(),
      }),
    });
  });

  it('deploys the built SPA with a config.json made from the stack outputs, then invalidates the cache', () => {
    const deployments = Object.values(build.template.findResources('Custom::CDKBucketDeployment')).map(
      (d) => d.Properties,
    );
    expect(deployments).toHaveLength(2);
    const entryPoints = deployments.find((d) => d.DistributionId);
    expect(entryPoints).toMatchObject({
      DestinationBucketName: { Ref: contentBucket },
      DistributionId: { Ref: distribution },
      DistributionPaths: ['/*'],
      SystemMetadata: { 'cache-control': 'no-cache' },
    });
    const markers = JSON.stringify(entryPoints?.SourceMarkers);
    const outputs: [type: string, path: string][] = [
      ['AWS::Cognito::UserPool', '/Auth/UserPool/'],
      ['AWS::Cognito::UserPoolClient', '/Auth/UserPool/WebClient/'],
      ['AWS::AppSync::GraphQLApi', '/GraphQL/Api/'],
      ...['Embed', 'QuickSightAdmin', 'UserAdmin', 'Mfa', 'Contact'].map((fn): [string, string] => [
        'AWS::Lambda::Url',
        `/Functions/${fn}/`,
      ]),
    ];
    for (const [type, path] of outputs) expect(markers).toContain(`"${logicalIdAt(build.template, type, path)}"`);
  });

  it('gives the SPA the configured session limits and passkeys in config.json (the defaults here)', () => {
    const staged = readdirSync(build.outdir)
      .map((entry) => join(build.outdir, entry, 'config.json'))
      .filter((path) => existsSync(path));
    expect(staged).toHaveLength(1);
    const config = JSON.parse(readFileSync(staged[0]!, 'utf8')) as Record<string, unknown>;
    expect(config.session).toEqual({ idleTimeoutMinutes: 30, absoluteSessionMinutes: 720 });
    expect(config.passkeys).toBe(true);
  });
});

describe('site with a custom domain and a web ACL', () => {
  const certificateArn = 'arn:aws:acm:us-east-1:123456789012:certificate/0f1e2d3c-4b5a-6978-8a9b-0c1d2e3f4a5b';
  const webAclArn = 'arn:aws:wafv2:us-east-1:123456789012:global/webacl/portal/0f1e2d3c-4b5a-6978-8a9b-0c1d2e3f4a5b';
  let build: PortalBuild;
  beforeAll(() => {
    build = buildPortal({ context: { domainName: 'Portal.Example.com', certificateArn, webAclArn } });
  });
  afterAll(() => build.dispose());

  it('serves the domain with its certificate on TLS 1.2 or later and attaches the web ACL', () => {
    build.template.hasResourceProperties('AWS::CloudFront::Distribution', {
      DistributionConfig: Match.objectLike({
        Aliases: ['portal.example.com'],
        ViewerCertificate: {
          AcmCertificateArn: certificateArn,
          MinimumProtocolVersion: 'TLSv1.2_2021',
          SslSupportMethod: 'sni-only',
        },
        WebACLId: webAclArn,
      }),
    });
  });

  it("names exactly this stack's Cognito, AppSync and function URL origins in the CSP header's connect-src, no wildcard host", () => {
    const resources = build.template.toJSON().Resources as Resources;
    expectExactConnectSrc(connectSrc(headerPolicy(build)), resources);
    expectExactConnectSrc(connectSrc(metaPolicy(deployedIndexHtml(build)).policy), resources);
  });

  it('can be deployed with the endpoints in the header: no dependency cycle', () => {
    expect(findCycle(dependencies(build.template.toJSON() as TemplateResources))).toBeUndefined();
  });

  it('binds passkeys to the custom domain', () => {
    build.template.hasResourceProperties('AWS::Cognito::UserPool', { WebAuthnRelyingPartyID: 'portal.example.com' });
  });

  it('admits the custom domain as the only CORS origin', () => {
    for (const url of Object.values(build.template.findResources('AWS::Lambda::Url'))) {
      expect(url.Properties.Cors.AllowOrigins).toEqual(['https://portal.example.com']);
    }
  });
});

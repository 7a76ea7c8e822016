import type { IncomingHttpHeaders } from 'node:http';
import { LIST_BUCKET_HEADER } from '#emulators/s3/list-bucket-header.ts';
import { mailboxAddress } from '#emulators/ses/identities.ts';
import { COGNITO_WITHOUT_IAM } from '#contracts/cognito-operations.ts';
import type { AwsCall } from './policies.ts';

/**
 * How each local AWS endpoint's requests map to IAM: the action, the resource ARNs and the
 * condition keys AWS authorizes them on (Service Authorization Reference: "Actions, resources,
 * and condition keys for <service>"), and how the service words its errors.
 */

export interface ApiRequest {
  readonly method: string;
  /** Path without the query, still percent-encoded. */
  readonly path: string;
  readonly headers: IncomingHttpHeaders;
  readonly body: Buffer;
}

export interface CallScope {
  /** Region of the request's credential scope. */
  readonly region: string;
  readonly accountId: string;
}

/**
 * What a request is: a call IAM authorizes, a call Cognito authorizes with the user's own
 * token or none (`public`), a malformed call (`invalid`, the service's own validation answers
 * it), or not an API call at all (`page`: JWKS, email links, embed pages, the inbox).
 */
export type Classified =
  | {
      readonly kind: 'iam';
      readonly call: (scope: CallScope) => AwsCall;
      /**
       * A further permission whose answer changes the service's reply, not whether the call
       * is made: the gate evaluates it and tells the stand-in in `header` ('1' allowed, '0' not).
       * S3 answers a missing key with NoSuchKey only to a caller allowed s3:ListBucket.
       */
      readonly also?: { readonly header: string; readonly call: (scope: CallScope) => AwsCall };
    }
  | { readonly kind: 'public' }
  | { readonly kind: 'invalid' }
  | { readonly kind: 'page' };

export interface ServiceRules {
  /** Signing name in the credential scope. */
  readonly signingName: string;
  readonly protocol: 'json' | 'rest-json' | 'rest-xml';
  /** REST-JSON: the member of the error body that holds the message (QuickSight `Message`, SES v2 `message`). */
  readonly messageMember?: 'message' | 'Message';
  /** The error code and HTTP status of a denied call. */
  readonly accessDenied: { readonly code: string; readonly status: number };
  classify(request: ApiRequest): Classified;
}

const PAGE: Classified = { kind: 'page' };
const INVALID: Classified = { kind: 'invalid' };

function jsonBody(body: Buffer): Record<string, unknown> | undefined {
  try {
    const parsed: unknown = JSON.parse(body.length === 0 ? '{}' : body.toString('utf8'));
    return parsed !== null && typeof parsed === 'object' && !Array.isArray(parsed)
      ? (parsed as Record<string, unknown>)
      : undefined;
  } catch {
    return undefined;
  }
}

const text = (value: unknown): string | undefined =>
  typeof value === 'string' && value.length > 0 ? value : undefined;

/** The operation of an AWS JSON protocol request (`X-Amz-Target: <prefix>.<Operation>`). */
function jsonTarget(request: ApiRequest, prefix: string): string | undefined {
  if (request.method !== 'POST') return undefined;
  const target = request.headers['x-amz-target'];
  if (typeof target !== 'string' || !target.startsWith(`${prefix}.`)) return undefined;
  return target.slice(prefix.length + 1);
}

const arn = (scope: CallScope, service: string, resource: string) =>
  `arn:aws:${service}:${scope.region}:${scope.accountId}:${resource}`;

export const dynamodbRules: ServiceRules = {
  signingName: 'dynamodb',
  protocol: 'json',
  accessDenied: { code: 'AccessDeniedException', status: 400 },
  classify(request) {
    const operation = jsonTarget(request, 'DynamoDB_20120810');
    if (!operation) return request.method === 'POST' ? INVALID : PAGE;
    const body = jsonBody(request.body);
    if (!body) return INVALID;
    const tableNames: string[] = [];
    const table = text(body.TableName);
    if (table) tableNames.push(table);
    if (body.RequestItems && typeof body.RequestItems === 'object') tableNames.push(...Object.keys(body.RequestItems));
    if (Array.isArray(body.TransactItems)) {
      for (const item of body.TransactItems as Record<string, { TableName?: unknown }>[]) {
        for (const part of Object.values(item ?? {}))
          if (text(part?.TableName)) tableNames.push(part.TableName as string);
      }
    }
    const index = text(body.IndexName);
    return {
      kind: 'iam',
      call: (scope) => ({
        action: `dynamodb:${operation}`,
        resources:
          tableNames.length === 0
            ? ['*']
            : [...new Set(tableNames)].map((name) =>
                arn(scope, 'dynamodb', `table/${name}${index ? `/index/${index}` : ''}`),
              ),
      }),
    };
  },
};

export const cognitoRules: ServiceRules = {
  signingName: 'cognito-idp',
  protocol: 'json',
  accessDenied: { code: 'AccessDeniedException', status: 400 },
  classify(request) {
    const operation = jsonTarget(request, 'AWSCognitoIdentityProviderService');
    if (!operation) return request.method === 'POST' && request.headers['x-amz-target'] ? INVALID : PAGE;
    if (COGNITO_WITHOUT_IAM.has(operation)) return { kind: 'public' };
    const body = jsonBody(request.body);
    if (!body) return INVALID;
    const poolId = text(body.UserPoolId);
    return {
      kind: 'iam',
      call: (scope) => ({
        action: `cognito-idp:${operation}`,
        resources: [poolId ? arn(scope, 'cognito-idp', `userpool/${poolId}`) : '*'],
      }),
    };
  },
};

interface RestRoute {
  readonly method: string;
  readonly pattern: RegExp;
  readonly operation: string;
  /** The resource ARNs, from the path's labels and the body. */
  readonly resources: (scope: CallScope, labels: string[], body: Record<string, unknown>) => string[];
  readonly context?: (body: Record<string, unknown>) => Record<string, string | string[]>;
}

function restRules(
  signingName: string,
  apiPrefix: string,
  accessDenied: ServiceRules['accessDenied'],
  messageMember: 'message' | 'Message',
  routes: readonly RestRoute[],
): ServiceRules {
  return {
    signingName,
    protocol: 'rest-json',
    messageMember,
    accessDenied,
    classify(request) {
      if (!request.path.startsWith(apiPrefix)) return PAGE;
      const route = routes.find((r) => r.method === request.method && r.pattern.test(request.path));
      if (!route) return INVALID;
      const labels = (route.pattern.exec(request.path) ?? []).slice(1).map((label) => decodeURIComponent(label));
      const body = request.method === 'GET' || request.method === 'DELETE' ? {} : jsonBody(request.body);
      if (!body) return INVALID;
      return {
        kind: 'iam',
        call: (scope) => ({
          action: `${signingName}:${route.operation}`,
          resources: route.resources(scope, labels, body),
          ...(route.context && { context: route.context(body) }),
        }),
      };
    },
  };
}

const SEGMENT = '([^/]+)';
const path = (...parts: string[]) => new RegExp(`^${parts.join('/')}/?$`);

const qsUser = (scope: CallScope, namespace: string, user: string) =>
  arn(scope, 'quicksight', `user/${namespace}/${user}`);
const qsDashboard = (scope: CallScope, id: string) => arn(scope, 'quicksight', `dashboard/${id}`);
const qsGroup = (scope: CallScope, namespace: string, group: string) =>
  arn(scope, 'quicksight', `group/${namespace}/${group}`);
const qsDataSource = (scope: CallScope, id: string) => arn(scope, 'quicksight', `datasource/${id}`);
const qsDataSet = (scope: CallScope, id: string) => arn(scope, 'quicksight', `dataset/${id}`);
const qsIngestion = (scope: CallScope, dataSetId: string, id: string) =>
  arn(scope, 'quicksight', `dataset/${dataSetId}/ingestion/${id}`);

/** The data sources a CreateDataSet request reads (each physical table's DataSourceArn). */
function dataSourcesOf(body: Record<string, unknown>): string[] {
  const tables =
    body.PhysicalTableMap !== null && typeof body.PhysicalTableMap === 'object'
      ? Object.values(body.PhysicalTableMap)
      : [];
  return tables.flatMap((table) => {
    const source = (table ?? {}) as Record<string, { DataSourceArn?: unknown } | undefined>;
    return Object.values(source).flatMap((member) =>
      text(member?.DataSourceArn) ? [member!.DataSourceArn as string] : [],
    );
  });
}

// '/account' covers DescribeAccountSubscription (GET /account/{id}) besides the /accounts/ routes.
export const quicksightRules = restRules(
  'quicksight',
  '/account',
  { code: 'AccessDeniedException', status: 401 },
  'Message',
  [
    {
      method: 'POST',
      pattern: path('', 'accounts', SEGMENT, 'namespaces', SEGMENT, 'users'),
      operation: 'RegisterUser',
      resources: (scope, [, namespace], body) => [
        qsUser(scope, namespace!, text(body.UserName) ?? text(body.Email) ?? '*'),
      ],
    },
    {
      method: 'GET',
      pattern: path('', 'accounts', SEGMENT, 'namespaces', SEGMENT, 'users'),
      operation: 'ListUsers',
      resources: (scope, [, ns]) => [qsUser(scope, ns!, '*')],
    },
    {
      method: 'GET',
      pattern: path('', 'accounts', SEGMENT, 'namespaces', SEGMENT, 'users', SEGMENT),
      operation: 'DescribeUser',
      resources: (scope, [, ns, user]) => [qsUser(scope, ns!, user!)],
    },
    {
      method: 'DELETE',
      pattern: path('', 'accounts', SEGMENT, 'namespaces', SEGMENT, 'users', SEGMENT),
      operation: 'DeleteUser',
      resources: (scope, [, ns, user]) => [qsUser(scope, ns!, user!)],
    },
    {
      method: 'GET',
      pattern: path('', 'accounts', SEGMENT, 'namespaces', SEGMENT, 'users', SEGMENT, 'groups'),
      operation: 'ListUserGroups',
      resources: (scope, [, ns, user]) => [qsUser(scope, ns!, user!)],
    },
    {
      method: 'GET',
      pattern: path('', 'accounts', SEGMENT, 'dashboards'),
      operation: 'ListDashboards',
      resources: (scope) => [qsDashboard(scope, '*')],
    },
    {
      method: 'GET',
      pattern: path('', 'accounts', SEGMENT, 'dashboards', SEGMENT),
      operation: 'DescribeDashboard',
      resources: (scope, [, id]) => [qsDashboard(scope, id!)],
    },
    {
      method: 'GET',
      pattern: path('', 'accounts', SEGMENT, 'dashboards', SEGMENT, 'permissions'),
      operation: 'DescribeDashboardPermissions',
      resources: (scope, [, id]) => [qsDashboard(scope, id!)],
    },
    {
      method: 'PUT',
      pattern: path('', 'accounts', SEGMENT, 'dashboards', SEGMENT, 'permissions'),
      operation: 'UpdateDashboardPermissions',
      resources: (scope, [, id]) => [qsDashboard(scope, id!)],
    },
    {
      method: 'POST',
      pattern: path('', 'accounts', SEGMENT, 'embed-url', 'registered-user'),
      operation: 'GenerateEmbedUrlForRegisteredUser',
      // Authorized on the user the URL is for; the dashboards are checked against that user's permissions.
      resources: (scope, _labels, body) => [text(body.UserArn) ?? qsUser(scope, 'default', '*')],
    },
    {
      method: 'GET',
      pattern: path('', 'account', SEGMENT),
      operation: 'DescribeAccountSubscription',
      resources: (scope, [id]) => [arn(scope, 'quicksight', `account/${id!}`)],
    },
    {
      method: 'GET',
      pattern: path('', 'accounts', SEGMENT, 'namespaces', SEGMENT),
      operation: 'DescribeNamespace',
      resources: (scope, [, ns]) => [arn(scope, 'quicksight', `namespace/${ns!}`)],
    },
    {
      method: 'POST',
      pattern: path('', 'accounts', SEGMENT, 'namespaces', SEGMENT, 'groups'),
      operation: 'CreateGroup',
      resources: (scope, [, ns], body) => [qsGroup(scope, ns!, text(body.GroupName) ?? '*')],
    },
    {
      method: 'GET',
      pattern: path('', 'accounts', SEGMENT, 'namespaces', SEGMENT, 'groups'),
      operation: 'ListGroups',
      resources: (scope, [, ns]) => [qsGroup(scope, ns!, '*')],
    },
    {
      method: 'GET',
      pattern: path('', 'accounts', SEGMENT, 'namespaces', SEGMENT, 'groups', SEGMENT),
      operation: 'DescribeGroup',
      resources: (scope, [, ns, g]) => [qsGroup(scope, ns!, g!)],
    },
    {
      method: 'DELETE',
      pattern: path('', 'accounts', SEGMENT, 'namespaces', SEGMENT, 'groups', SEGMENT),
      operation: 'DeleteGroup',
      resources: (scope, [, ns, g]) => [qsGroup(scope, ns!, g!)],
    },
    {
      method: 'GET',
      pattern: path('', 'accounts', SEGMENT, 'namespaces', SEGMENT, 'groups', SEGMENT, 'members'),
      operation: 'ListGroupMemberships',
      resources: (scope, [, ns, g]) => [qsGroup(scope, ns!, g!)],
    },
    {
      method: 'PUT',
      pattern: path('', 'accounts', SEGMENT, 'namespaces', SEGMENT, 'groups', SEGMENT, 'members', SEGMENT),
      operation: 'CreateGroupMembership',
      resources: (scope, [, ns, g]) => [qsGroup(scope, ns!, g!)],
    },
    {
      method: 'DELETE',
      pattern: path('', 'accounts', SEGMENT, 'namespaces', SEGMENT, 'groups', SEGMENT, 'members', SEGMENT),
      operation: 'DeleteGroupMembership',
      resources: (scope, [, ns, g]) => [qsGroup(scope, ns!, g!)],
    },
    // The Service Authorization Reference lists no resource type for CreateDataSource and ListIngestions: IAM
    // authorizes them on "*".
    {
      method: 'POST',
      pattern: path('', 'accounts', SEGMENT, 'data-sources'),
      operation: 'CreateDataSource',
      resources: () => ['*'],
    },
    {
      method: 'GET',
      pattern: path('', 'accounts', SEGMENT, 'data-sources', SEGMENT),
      operation: 'DescribeDataSource',
      resources: (scope, [, id]) => [qsDataSource(scope, id!)],
    },
    {
      method: 'DELETE',
      pattern: path('', 'accounts', SEGMENT, 'data-sources', SEGMENT),
      operation: 'DeleteDataSource',
      resources: (scope, [, id]) => [qsDataSource(scope, id!)],
    },
    {
      method: 'GET',
      pattern: path('', 'accounts', SEGMENT, 'data-sources', SEGMENT, 'permissions'),
      operation: 'DescribeDataSourcePermissions',
      resources: (scope, [, id]) => [qsDataSource(scope, id!)],
    },
    {
      method: 'POST',
      pattern: path('', 'accounts', SEGMENT, 'data-sources', SEGMENT, 'permissions'),
      operation: 'UpdateDataSourcePermissions',
      resources: (scope, [, id]) => [qsDataSource(scope, id!)],
    },
    // The API reference names dataset/* as ListDataSets' permissions resource, but the Service
    // Authorization Reference lists no resource type for it: IAM authorizes it on "*".
    {
      method: 'GET',
      pattern: path('', 'accounts', SEGMENT, 'data-sets'),
      operation: 'ListDataSets',
      resources: () => ['*'],
    },
    {
      method: 'POST',
      pattern: path('', 'accounts', SEGMENT, 'data-sets'),
      operation: 'CreateDataSet',
      // Authorized on every data source it reads (the Service Authorization Reference's only resource type for it).
      resources: (_scope, _l, body) => {
        const sources = dataSourcesOf(body);
        return sources.length > 0 ? sources : ['*'];
      },
    },
    {
      method: 'GET',
      pattern: path('', 'accounts', SEGMENT, 'data-sets', SEGMENT),
      operation: 'DescribeDataSet',
      resources: (scope, [, id]) => [qsDataSet(scope, id!)],
    },
    {
      method: 'GET',
      pattern: path('', 'accounts', SEGMENT, 'data-sets', SEGMENT, 'permissions'),
      operation: 'DescribeDataSetPermissions',
      resources: (scope, [, id]) => [qsDataSet(scope, id!)],
    },
    {
      method: 'POST',
      pattern: path('', 'accounts', SEGMENT, 'data-sets', SEGMENT, 'permissions'),
      operation: 'UpdateDataSetPermissions',
      resources: (scope, [, id]) => [qsDataSet(scope, id!)],
    },
    {
      method: 'PUT',
      pattern: path('', 'accounts', SEGMENT, 'data-sets', SEGMENT, 'ingestions', SEGMENT),
      operation: 'CreateIngestion',
      resources: (scope, [, ds, id]) => [qsIngestion(scope, ds!, id!)],
    },
    {
      method: 'GET',
      pattern: path('', 'accounts', SEGMENT, 'data-sets', SEGMENT, 'ingestions', SEGMENT),
      operation: 'DescribeIngestion',
      resources: (scope, [, ds, id]) => [qsIngestion(scope, ds!, id!)],
    },
    {
      method: 'GET',
      pattern: path('', 'accounts', SEGMENT, 'data-sets', SEGMENT, 'ingestions'),
      operation: 'ListIngestions',
      resources: () => ['*'],
    },
  ],
);

const ADDRESS_IN_BRACKETS = /<([^<>]+)>\s*$/;
/** The address of a mailbox as SES's condition keys carry it (`Name <address>` or a bare address). */
const addressOf = (mailbox: string): string => mailboxAddress(mailbox) ?? mailbox.trim();

export interface SesAuthorization {
  /** The verified identity (address or domain) SES authorizes an address on. */
  identityOf(address: string): string;
  /** Whether the account is in the sandbox, where each recipient's identity is authorized too. */
  readonly sandbox: boolean;
}

const sesIdentity = (scope: CallScope, identity: string) => arn(scope, 'ses', `identity/${identity}`);

/** Every To, Cc and Bcc address of a SendEmail request. */
function recipientsOf(body: Record<string, unknown>): string[] {
  const destination = (body.Destination ?? {}) as Record<string, unknown>;
  return ['ToAddresses', 'CcAddresses', 'BccAddresses']
    .flatMap((field) => (Array.isArray(destination[field]) ? (destination[field] as unknown[]) : []))
    .filter((value): value is string => typeof value === 'string')
    .map(addressOf);
}

export function sesRules(ses: SesAuthorization): ServiceRules {
  // SES API v2 names an IAM denial AccessDeniedException, HTTP 403 (API Reference, "Common Errors").
  return restRules('ses', '/v2/', { code: 'AccessDeniedException', status: 403 }, 'message', [
    {
      method: 'POST',
      pattern: path('', 'v2', 'email', 'outbound-emails'),
      operation: 'SendEmail',
      resources: (scope, _labels, body) => {
        const from = addressOf(text(body.FromEmailAddress) ?? '');
        const identities = [from, ...(ses.sandbox ? recipientsOf(body) : [])].map((address) => ses.identityOf(address));
        return [...new Set(identities)].map((identity) => sesIdentity(scope, identity));
      },
      context: (body) => {
        const from = text(body.FromEmailAddress) ?? '';
        const displayName = ADDRESS_IN_BRACKETS.test(from)
          ? from.replace(ADDRESS_IN_BRACKETS, '').trim().replace(/^"|"$/g, '')
          : '';
        return {
          'ses:FromAddress': addressOf(from),
          'ses:FromDisplayName': displayName,
          'ses:Recipients': recipientsOf(body),
          'ses:ApiVersion': '2',
        };
      },
    },
    { method: 'GET', pattern: path('', 'v2', 'email', 'account'), operation: 'GetAccount', resources: () => ['*'] },
    {
      method: 'GET',
      pattern: path('', 'v2', 'email', 'identities', SEGMENT),
      operation: 'GetEmailIdentity',
      resources: (scope, [id]) => [sesIdentity(scope, id!)],
    },
    {
      method: 'POST',
      pattern: path('', 'v2', 'email', 'identities'),
      operation: 'CreateEmailIdentity',
      resources: (scope, _l, body) => [sesIdentity(scope, text(body.EmailIdentity) ?? '*')],
    },
  ]);
}

const s3Object = (bucket: string, key: string) => `arn:aws:s3:::${bucket}/${key}`;
const s3Bucket = (bucket: string) => `arn:aws:s3:::${bucket}`;

/**
 * S3 with path-style addressing (`/<bucket>/<key>`), as local mode's clients use it: object
 * reads and writes are authorized on the object's ARN, listing and HeadBucket on the bucket's
 * (S3 ARNs name neither region nor account). Unknown requests go on to the stand-in, which
 * answers them as S3 does.
 */
export const s3Rules: ServiceRules = {
  signingName: 's3',
  protocol: 'rest-xml',
  accessDenied: { code: 'AccessDenied', status: 403 },
  classify(request) {
    let bucket: string;
    let key: string;
    try {
      const [encodedBucket = '', ...rest] = request.path.slice(1).split('/');
      bucket = decodeURIComponent(encodedBucket);
      key = decodeURIComponent(rest.join('/'));
    } catch {
      return INVALID;
    }
    const iamCall = (action: string, resource: string): Classified => ({
      kind: 'iam',
      call: () => ({ action: `s3:${action}`, resources: [resource] }),
    });
    if (bucket === '') return request.method === 'GET' ? iamCall('ListAllMyBuckets', '*') : INVALID;
    if (key === '')
      return request.method === 'GET' || request.method === 'HEAD' ? iamCall('ListBucket', s3Bucket(bucket)) : INVALID;
    switch (request.method) {
      case 'PUT':
        return iamCall('PutObject', s3Object(bucket, key));
      case 'DELETE':
        return iamCall('DeleteObject', s3Object(bucket, key));
      case 'GET':
      case 'HEAD':
        return {
          kind: 'iam',
          call: () => ({ action: 's3:GetObject', resources: [s3Object(bucket, key)] }),
          also: {
            header: LIST_BUCKET_HEADER,
            call: () => ({ action: 's3:ListBucket', resources: [s3Bucket(bucket)] }),
          },
        };
      default:
        return INVALID;
    }
  },
};

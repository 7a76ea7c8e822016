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
type Classified =
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

export const text = (value: unknown): string | undefined =>
  typeof value === 'string' && value.length > 0 ? value : undefined;

/** The operation of an AWS JSON protocol request (`X-Amz-Target: <prefix>.<Operation>`). */
function jsonTarget(request: ApiRequest, prefix: string): string | undefined {
  if (request.method !== 'POST') return undefined;
  const target = request.headers['x-amz-target'];
  if (typeof target !== 'string' || !target.startsWith(`${prefix}.`)) return undefined;
  return target.slice(prefix.length + 1);
}

export const arn = (scope: CallScope, service: string, resource: string) =>
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

export function restRules(
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

export const SEGMENT = '([^/]+)';
export const path = (...parts: string[]) => new RegExp(`^${parts.join('/')}/?$`);

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

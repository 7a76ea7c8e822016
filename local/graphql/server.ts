import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AppSyncIdentityCognito, Context } from 'aws-lambda';
import { CognitoJwtVerifier } from 'aws-jwt-verify';
import { SimpleJwksCache, type Jwks } from 'aws-jwt-verify/jwk';
import {
  defaultFieldResolver,
  execute,
  GraphQLError,
  parse,
  specifiedRules,
  validate,
  type DocumentNode,
  type GraphQLFieldResolver,
  type GraphQLSchema,
} from 'graphql';
import { closeServer, httpUrl, listen, PayloadTooLargeError, readBody, sendJson } from '#emulators/shared/http.ts';
import {
  DEFAULT_FUNCTION_TIMEOUT_MS,
  FunctionTimeoutError,
  invokeWithTimeout,
  lambdaContext,
} from '../lambda-context.ts';
import { appsyncError, FieldError, limitError, requestError, UNAUTHORIZED_BODY } from './errors.ts';
import { userPoolCallerMayResolve } from './field-auth.ts';
import { NoIntrospection } from './introspection.ts';
import { FILTER_WIDTH_MESSAGE, filterTermsExceed } from './filter-width.ts';
import { documentNestsTooDeep, limitViolation, nestingMessage, valueNestsTooDeep } from './limits.ts';
import { cognitoIdentity, resolverEvent } from './resolver-event.ts';

const GRAPHQL_PATH = '/graphql';
const REQUEST_LIMIT_BYTES = 1024 * 1024;

/** AppSync answers CORS for any origin: access is controlled by the authorization header. */
const CORS_HEADERS = {
  'access-control-allow-origin': '*',
  'access-control-allow-methods': 'POST, OPTIONS',
  'access-control-allow-headers':
    'authorization, content-type, x-amz-date, x-amz-user-agent, x-api-key, x-amz-security-token',
  'access-control-max-age': '86400',
};

export type ResolverHandler = (event: unknown, context: Context) => Promise<unknown>;

export interface GraphqlServerOptions {
  readonly schema: GraphQLSchema;
  /** The Lambda data source's handler (lambdas/graphql). */
  readonly handler: ResolverHandler;
  readonly userPoolId: string;
  readonly clientId: string;
  readonly jwks: object;
  readonly host: string;
  readonly port: number;
  readonly region: string;
  /** @default 30 s */
  readonly timeoutMs?: number;
  readonly logError?: (message: string) => void;
}

export interface GraphqlServer {
  readonly url: string;
  close(): Promise<void>;
}

interface GraphqlRequest {
  readonly query: string;
  readonly variables: Record<string, unknown>;
  readonly operationName: string | null;
}

function parseRequest(body: Buffer): GraphqlRequest | undefined {
  let value: unknown;
  try {
    value = JSON.parse(body.toString('utf8'));
  } catch {
    return undefined;
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return undefined;
  const { query, variables, operationName } = value as Record<string, unknown>;
  if (typeof query !== 'string' || query.trim() === '') return undefined;
  if (variables !== undefined && variables !== null && (typeof variables !== 'object' || Array.isArray(variables)))
    return undefined;
  if (operationName !== undefined && operationName !== null && typeof operationName !== 'string') return undefined;
  return { query, variables: (variables ?? {}) as Record<string, unknown>, operationName: operationName ?? null };
}

/**
 * The AppSync stand-in: the product's schema, Cognito user-pool authorization with the same
 * verifier settings (raw JWT in `Authorization`, ID or access token of this client), and
 * the Lambda data source invoked once per root field with the direct-resolver event. The
 * API's query depth and resolver count limits are enforced before any resolver runs, and
 * introspection is refused as the deployed API (introspection disabled) refuses it.
 */
export async function startGraphqlServer(options: GraphqlServerOptions): Promise<GraphqlServer> {
  const { schema, handler, host, region, timeoutMs = DEFAULT_FUNCTION_TIMEOUT_MS } = options;
  const logError = options.logError ?? ((message: string) => process.stderr.write(`${message}\n`));
  // Keys come from the local identity provider only: a token naming an unknown key fails
  // here instead of sending the verifier to the AWS endpoint of the issuer.
  const jwksCache = new SimpleJwksCache({
    fetcher: { fetch: (uri) => Promise.reject(new Error(`Local mode does not fetch ${uri}`)) },
  });
  const verifier = CognitoJwtVerifier.create(
    { userPoolId: options.userPoolId, clientId: options.clientId, tokenUse: null },
    { jwksCache },
  );
  verifier.cacheJwks(options.jwks as Jwks);
  const rootTypes = new Set(
    [schema.getQueryType(), schema.getMutationType(), schema.getSubscriptionType()].filter(Boolean),
  );

  const authenticate = async (req: IncomingMessage): Promise<AppSyncIdentityCognito | undefined> => {
    const token = req.headers.authorization;
    if (!token) return undefined;
    try {
      return cognitoIdentity(await verifier.verify(token), req.socket.remoteAddress ?? '127.0.0.1');
    } catch {
      return undefined;
    }
  };

  const resolveWithLambda = async (event: unknown, fieldName: string): Promise<unknown> => {
    const requestId = randomUUID();
    try {
      const result = await invokeWithTimeout(
        () => handler(event, lambdaContext('graphql', requestId, region, timeoutMs)),
        timeoutMs,
      );
      return result === undefined ? null : JSON.parse(JSON.stringify(result));
    } catch (error) {
      if (error instanceof FunctionTimeoutError) {
        logError(`[graphql] ${requestId} ${fieldName}: ${error.message}`);
        throw new FieldError('Lambda:Unhandled', error.message);
      }
      const { name, message } = error instanceof Error ? error : new Error(String(error));
      // A direct Lambda resolver reports the Lambda error's type and message, nothing more.
      throw new FieldError(name, message);
    }
  };

  const run = async (req: IncomingMessage, identity: AppSyncIdentityCognito, request: GraphqlRequest) => {
    const refused = (message: string) => ({ status: 200, body: { data: null, errors: [limitError(message)] } });
    // Checked before parsing: the parser and value coercion recurse once per nesting level.
    if (documentNestsTooDeep(request.query) || valueNestsTooDeep(request.variables)) return refused(nestingMessage);
    // The resolver refuses over-wide filters too, but only after parsing, validation and coercion have paid for them.
    if (filterTermsExceed(request.query, request.variables)) return refused(FILTER_WIDTH_MESSAGE);
    let document: DocumentNode;
    try {
      document = parse(request.query);
    } catch (error) {
      // Only the parser's own syntax errors are shown; anything else is an internal failure.
      if (!(error instanceof GraphQLError)) throw error;
      return { status: 200, body: { data: null, errors: [appsyncError(error, 'InvalidSyntax')] } };
    }
    // The deployed API disables introspection: AppSync refuses it as a validation error (introspection.ts).
    const validationErrors = validate(schema, document, [...specifiedRules, NoIntrospection]);
    if (validationErrors.length > 0) {
      return {
        status: 200,
        body: { data: null, errors: validationErrors.map((e) => appsyncError(e, 'ValidationError')) },
      };
    }
    const violation = limitViolation(document, request.operationName);
    if (violation !== undefined) return refused(violation);
    const fieldResolver: GraphQLFieldResolver<unknown, unknown> = (source, args, context, info) => {
      const field = info.parentType.getFields()[info.fieldName]!;
      if (!userPoolCallerMayResolve(field, info.parentType, identity.groups ?? [])) {
        throw new FieldError(
          'Unauthorized',
          `Not Authorized to access ${info.fieldName} on type ${info.parentType.name}`,
        );
      }
      if (!rootTypes.has(info.parentType)) return defaultFieldResolver(source, args, context, info);
      const event = resolverEvent(args, source, info, { headers: req.headers, identity, variables: request.variables });
      return resolveWithLambda(event, info.fieldName);
    };
    const result = await execute({
      schema,
      document,
      variableValues: request.variables,
      operationName: request.operationName,
      fieldResolver,
    });
    const body: Record<string, unknown> = { data: result.data ?? null };
    if (result.errors?.length)
      body.errors = result.errors.map((e) => appsyncError(e, result.data === undefined ? 'ValidationError' : null));
    return { status: 200, body };
  };

  const handle = async (req: IncomingMessage, res: ServerResponse) => {
    const path = new URL(req.url ?? '/', 'http://localhost').pathname;
    if (req.method === 'OPTIONS') {
      req.resume();
      res.writeHead(200, CORS_HEADERS).end();
      return;
    }
    if (path !== GRAPHQL_PATH) {
      req.resume();
      sendJson(res, 404, requestError('NotFoundException', `Only ${GRAPHQL_PATH} is served here.`), CORS_HEADERS);
      return;
    }
    if (req.method !== 'POST') {
      req.resume();
      sendJson(
        res,
        400,
        requestError('MalformedHttpRequestException', 'Only POST requests are supported.'),
        CORS_HEADERS,
      );
      return;
    }
    const identity = await authenticate(req);
    if (!identity) {
      req.resume();
      sendJson(res, 401, UNAUTHORIZED_BODY, CORS_HEADERS);
      return;
    }
    let raw: Buffer;
    try {
      raw = await readBody(req, REQUEST_LIMIT_BYTES);
    } catch (error) {
      if (!(error instanceof PayloadTooLargeError)) throw error;
      sendJson(res, 413, requestError('MalformedHttpRequestException', 'Request body is too large.'), CORS_HEADERS);
      return;
    }
    if (raw.length === 0) {
      sendJson(res, 400, requestError('MalformedHttpRequestException', 'Request body is empty.'), CORS_HEADERS);
      return;
    }
    const request = parseRequest(raw);
    if (!request) {
      sendJson(res, 400, requestError('MalformedHttpRequestException', 'Unable to parse GraphQL query.'), CORS_HEADERS);
      return;
    }
    const { status, body } = await run(req, identity, request);
    sendJson(res, status, body, CORS_HEADERS);
  };

  const server = createServer((req, res) => {
    handle(req, res).catch((error: unknown) => {
      logError(`[graphql] request failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
      if (!res.headersSent)
        sendJson(res, 500, requestError('InternalFailure', 'An internal failure occurred.'), CORS_HEADERS);
    });
  });
  const port = await listen(server, options.port, host);
  return { url: `${httpUrl(host, port)}${GRAPHQL_PATH}`, close: () => closeServer(server) };
}

import { randomUUID } from 'node:crypto';
import { createServer, request as httpRequest, type IncomingMessage, type ServerResponse } from 'node:http';
import { LOCAL_REGION } from '#clients/local-stack.ts';
import { closeServer, httpUrl, listen, PayloadTooLargeError, readBody } from '#emulators/shared/http.ts';
import { sendS3Error } from '#emulators/s3/errors.ts';
import type { LocalIam } from './policies.ts';
import type { ServiceRules } from './services.ts';
import { checkSignature, type SignatureFailure } from './sigv4.ts';

/**
 * The IAM front of one local AWS endpoint. Every API request must carry a valid SigV4
 * signature of a known principal (as AWS checks it), and IAM-authorized calls must be
 * allowed by that principal's policies; then the request goes on to the stand-in unchanged.
 * Refusals are answered in the service's own error format and reach the stand-in never, so
 * they change nothing. Pages (JWKS, email links, embed pages, the inbox) pass through.
 */

/** AWS's request size limits are all well below this; it only bounds what is buffered. */
const MAX_BODY_BYTES = 16 * 1024 * 1024;

/**
 * Each signature failure in the JSON protocol (HTTP 400), the REST-JSON protocols (403), and
 * S3's REST-XML protocol, whose codes, statuses and messages are its own (Amazon S3 API
 * Reference, "List of error codes"; an unsigned request is an anonymous one, refused).
 * An expired signature and a credential scoped to another region are InvalidSignatureException
 * with AWS's messages ("Signature expired: ...", "Credential should be scoped to a valid region").
 */
const SIGNATURE_ERRORS: Record<
  SignatureFailure,
  { json: string; rest: string; xml: { status: number; code: string; message?: string } }
> = {
  MissingAuthenticationToken: {
    json: 'MissingAuthenticationTokenException',
    rest: 'MissingAuthenticationTokenException',
    xml: { status: 403, code: 'AccessDenied', message: 'Access Denied' },
  },
  IncompleteSignature: {
    json: 'IncompleteSignatureException',
    rest: 'IncompleteSignatureException',
    xml: { status: 400, code: 'AuthorizationHeaderMalformed' },
  },
  UnrecognizedClient: {
    json: 'UnrecognizedClientException',
    rest: 'UnrecognizedClientException',
    xml: {
      status: 403,
      code: 'InvalidAccessKeyId',
      message: 'The AWS Access Key Id you provided does not exist in our records.',
    },
  },
  InvalidSignature: {
    json: 'InvalidSignatureException',
    rest: 'InvalidSignatureException',
    xml: {
      status: 403,
      code: 'SignatureDoesNotMatch',
      message:
        'The request signature we calculated does not match the signature you provided. Check your key and signing method.',
    },
  },
  SignatureExpired: {
    json: 'InvalidSignatureException',
    rest: 'InvalidSignatureException',
    xml: {
      status: 403,
      code: 'RequestTimeTooSkewed',
      message: 'The difference between the request time and the current time is too large.',
    },
  },
  WrongRegion: {
    json: 'InvalidSignatureException',
    rest: 'InvalidSignatureException',
    xml: { status: 400, code: 'AuthorizationHeaderMalformed' },
  },
  ContentHashMismatch: {
    json: 'InvalidSignatureException',
    rest: 'InvalidSignatureException',
    xml: { status: 400, code: 'XAmzContentSHA256Mismatch' },
  },
  MissingContentHash: {
    json: 'InvalidSignatureException',
    rest: 'InvalidSignatureException',
    xml: { status: 400, code: 'InvalidRequest' },
  },
};

/**
 * Headers only the gate sets for its stand-in (the answer of a ServiceRules `also` check): never taken from a caller.
 */
const GATE_HEADER_PREFIX = 'x-local-iam-';

export interface IamGateOptions {
  readonly rules: ServiceRules;
  readonly iam: LocalIam;
  /** The stand-in the gate forwards to. */
  readonly upstream: string;
  readonly host: string;
  readonly port: number;
  /** Where refusals are reported, for whoever runs local mode. @default stderr */
  readonly log?: (line: string) => void;
  readonly now?: () => Date;
  /** The region of the endpoint: a credential scoped to another is refused. @default LOCAL_REGION */
  readonly region?: string;
}

export interface IamGate {
  readonly url: string;
  close(): Promise<void>;
}

function sendError(
  res: ServerResponse,
  rules: ServiceRules,
  status: number,
  code: string,
  message: string,
  method = 'POST',
): void {
  if (rules.protocol === 'rest-xml') return sendS3Error(res, method, { status, code, message });
  const requestId = randomUUID();
  const json = rules.protocol === 'json';
  const payload = JSON.stringify(json ? { __type: code, message } : { [rules.messageMember ?? 'message']: message });
  res.writeHead(status, {
    'content-type': json ? 'application/x-amz-json-1.1' : 'application/json',
    'content-length': Buffer.byteLength(payload),
    'x-amzn-requestid': requestId,
    'x-amzn-errortype': code,
  });
  res.end(payload);
}

function forward(
  req: IncomingMessage,
  body: Buffer,
  res: ServerResponse,
  upstream: URL,
  gateHeaders: Record<string, string> = {},
): void {
  const headers = { ...req.headers, ...gateHeaders };
  const proxied = httpRequest(
    { hostname: upstream.hostname, port: upstream.port, method: req.method, path: req.url, headers },
    (answer) => {
      res.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.pipe(res);
    },
  );
  proxied.on('error', (error) => {
    if (!res.headersSent) res.writeHead(502, { 'content-type': 'text/plain' });
    res.end(`Local service unavailable: ${error.message}`);
  });
  proxied.end(body);
}

export async function startIamGate(options: IamGateOptions): Promise<IamGate> {
  const { rules, iam } = options;
  const upstream = new URL(options.upstream);
  const log = options.log ?? ((line: string) => process.stderr.write(`${line}\n`));
  const now = options.now ?? (() => new Date());
  const region = options.region ?? LOCAL_REGION;

  const handle = async (req: IncomingMessage, res: ServerResponse) => {
    const method = req.method ?? 'GET';
    const url = req.url ?? '/';
    const queryStart = url.indexOf('?');
    const path = queryStart === -1 ? url : url.slice(0, queryStart);
    for (const name of Object.keys(req.headers)) if (name.startsWith(GATE_HEADER_PREFIX)) delete req.headers[name];
    let body: Buffer;
    try {
      body = await readBody(req, MAX_BODY_BYTES);
    } catch (error) {
      if (error instanceof PayloadTooLargeError) {
        return rules.protocol === 'rest-xml'
          ? sendError(
              res,
              rules,
              400,
              'EntityTooLarge',
              'Your proposed upload exceeds the maximum allowed size',
              method,
            )
          : sendError(res, rules, 413, 'RequestEntityTooLarge', error.message);
      }
      throw error;
    }
    const classified = rules.classify({ method, path, headers: req.headers, body });
    // Pages need no signature; Cognito's public and token-authorized operations ignore one.
    if (classified.kind === 'page' || classified.kind === 'public') return forward(req, body, res, upstream);

    const signature = checkSignature(
      // As received, less the gate's own headers (dropped above; headersDistinct is built from the raw headers).
      {
        method,
        url,
        headers: Object.fromEntries(
          Object.entries(req.headersDistinct).filter(([name]) => !name.startsWith(GATE_HEADER_PREFIX)),
        ),
        body,
      },
      iam.secretOf,
      { service: rules.signingName, region, s3: rules.protocol === 'rest-xml' },
      now(),
    );
    if (!signature.ok) {
      const failure = SIGNATURE_ERRORS[signature.failure];
      const xml = rules.protocol === 'rest-xml';
      const status = xml ? failure.xml.status : rules.protocol === 'json' ? 400 : 403;
      const code = xml ? failure.xml.code : failure[rules.protocol === 'json' ? 'json' : 'rest'];
      const message = xml ? (failure.xml.message ?? signature.message) : signature.message;
      // The log names the access key at most: never its secret or the signature.
      log(
        `[iam] ${rules.signingName}: ${method} ${path} refused with ${code}${signature.accessKeyId ? ` (access key ${signature.accessKeyId})` : ''}: ${message}`,
      );
      return sendError(res, rules, status, code, message, method);
    }
    // A malformed call is the stand-in's to refuse, with the service's validation message.
    if (classified.kind === 'invalid') return forward(req, body, res, upstream);

    const principal = iam.principal(signature.accessKeyId)!;
    const call = classified.call({ region: signature.region, accountId: iam.accountId });
    const decision = await iam.authorize(principal, call);
    if (!decision.allowed) {
      log(`[iam] ${principal.name}: ${call.action} denied on ${call.resources.join(', ')}`);
      return sendError(res, rules, rules.accessDenied.status, rules.accessDenied.code, decision.message, method);
    }
    const gateHeaders: Record<string, string> = {};
    if (classified.also) {
      const further = await iam.authorize(
        principal,
        classified.also.call({ region: signature.region, accountId: iam.accountId }),
      );
      gateHeaders[classified.also.header] = further.allowed ? '1' : '0';
    }
    forward(req, body, res, upstream, gateHeaders);
  };

  const server = createServer((req, res) => {
    handle(req, res).catch((error: unknown) => {
      log(
        `[iam] ${rules.signingName} gate failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`,
      );
      if (!res.headersSent) {
        if (rules.protocol === 'rest-xml')
          sendError(
            res,
            rules,
            500,
            'InternalError',
            'We encountered an internal error. Please try again.',
            req.method,
          );
        else
          sendError(
            res,
            rules,
            500,
            'InternalFailure',
            'The request processing has failed because of an unknown error, exception or failure.',
          );
      } else res.end();
    });
  });
  const port = await listen(server, options.port, options.host);
  return { url: httpUrl(options.host, port), close: () => closeServer(server) };
}

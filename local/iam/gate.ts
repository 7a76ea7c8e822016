import { randomUUID } from 'node:crypto';
import { createServer, request as httpRequest, type IncomingMessage, type ServerResponse } from 'node:http';
import { closeServer, httpUrl, listen, PayloadTooLargeError, readBody } from '../http.ts';
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

/** HTTP status of each signature failure in the JSON protocol (400) and REST protocols (403). */
const SIGNATURE_ERRORS: Record<SignatureFailure, { json: string; rest: string }> = {
  MissingAuthenticationToken: { json: 'MissingAuthenticationTokenException', rest: 'MissingAuthenticationTokenException' },
  IncompleteSignature: { json: 'IncompleteSignatureException', rest: 'IncompleteSignatureException' },
  UnrecognizedClient: { json: 'UnrecognizedClientException', rest: 'UnrecognizedClientException' },
  InvalidSignature: { json: 'InvalidSignatureException', rest: 'InvalidSignatureException' },
  SignatureExpired: { json: 'InvalidSignatureException', rest: 'InvalidSignatureException' },
};

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
}

export interface IamGate {
  readonly url: string;
  close(): Promise<void>;
}

function sendError(res: ServerResponse, rules: ServiceRules, status: number, code: string, message: string): void {
  const requestId = randomUUID();
  const json = rules.protocol === 'json';
  const payload = JSON.stringify(json ? { __type: code, message } : { message, Message: message });
  res.writeHead(status, {
    'content-type': json ? 'application/x-amz-json-1.1' : 'application/json',
    'content-length': Buffer.byteLength(payload),
    'x-amzn-requestid': requestId,
    'x-amzn-errortype': code,
  });
  res.end(payload);
}

function forward(req: IncomingMessage, body: Buffer, res: ServerResponse, upstream: URL): void {
  const proxied = httpRequest(
    { hostname: upstream.hostname, port: upstream.port, method: req.method, path: req.url, headers: req.headers },
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

  const handle = async (req: IncomingMessage, res: ServerResponse) => {
    const method = req.method ?? 'GET';
    const url = req.url ?? '/';
    const queryStart = url.indexOf('?');
    const path = queryStart === -1 ? url : url.slice(0, queryStart);
    let body: Buffer;
    try {
      body = await readBody(req, MAX_BODY_BYTES);
    } catch (error) {
      if (error instanceof PayloadTooLargeError) return sendError(res, rules, 413, 'RequestEntityTooLarge', error.message);
      throw error;
    }
    const classified = rules.classify({ method, path, headers: req.headers, body });
    // Pages need no signature; Cognito's public and token-authorized operations ignore one.
    if (classified.kind === 'page' || classified.kind === 'public') return forward(req, body, res, upstream);

    const signature = await checkSignature({ method, url, headers: req.headers, body }, iam.secretOf, rules.signingName, now());
    if (!signature.ok) {
      const code = SIGNATURE_ERRORS[signature.failure][rules.protocol === 'json' ? 'json' : 'rest'];
      return sendError(res, rules, rules.protocol === 'json' ? 400 : 403, code, signature.message);
    }
    // A malformed call is the stand-in's to refuse, with the service's validation message.
    if (classified.kind === 'invalid') return forward(req, body, res, upstream);

    const principal = iam.principal(signature.accessKeyId)!;
    const call = classified.call({ region: signature.region, accountId: iam.accountId });
    const decision = await iam.authorize(principal, call);
    if (!decision.allowed) {
      log(`[iam] ${principal.name}: ${call.action} denied on ${call.resources.join(', ')}`);
      return sendError(res, rules, rules.accessDenied.status, rules.accessDenied.code, decision.message);
    }
    forward(req, body, res, upstream);
  };

  const server = createServer((req, res) => {
    handle(req, res).catch((error: unknown) => {
      log(`[iam] ${rules.signingName} gate failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
      if (!res.headersSent) sendError(res, rules, 500, 'InternalFailure', 'The request processing has failed because of an unknown error, exception or failure.');
      else res.end();
    });
  });
  const port = await listen(server, options.port, options.host);
  return { url: httpUrl(options.host, port), close: () => closeServer(server) };
}

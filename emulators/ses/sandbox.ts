import { createServer, request, type IncomingMessage, type ServerResponse } from 'node:http';
import { randomUUID } from 'node:crypto';
import { closeServer, httpUrl, listen, PayloadTooLargeError, readBody, sendJson } from '../shared/http.ts';
import { IdentityError, IdentityStore, isMailboxSimulator, type EmailIdentity } from './identities.ts';
import { SesError, badRequest } from './errors.ts';
import type { InboxAnswer } from './inbox-downloads.ts';
import {
  createIdentitySchema,
  parseJson,
  addressOf,
  type Mailing,
  sendEmailMailing,
  sendBulkEmailMailing,
  v1Mailing,
} from './send-requests.ts';

/**
 * SES v2 as a new AWS account has it (SES developer guide, "Request production access
 * (Moving out of the Amazon SES sandbox)"), in front of aws-ses-v2-local, which accepts
 * anything. Sending needs a verified sender and at least one recipient; in the sandbox every
 * recipient must be verified too (or be the mailbox simulator); the account reports its quota
 * and keeps to its maximum sending rate (1 email per second in the sandbox). Accepted
 * requests, and every operation not handled here, go to aws-ses-v2-local unchanged.
 */
export interface SesSandboxOptions {
  readonly host: string;
  readonly port: number;
  /** aws-ses-v2-local, which delivers into the capture. */
  readonly targetUrl: string;
  /** Identities (addresses or domains) verified from the start, as the account's owner would have done. */
  readonly verifiedIdentities: readonly string[];
  /** A new account is in the sandbox; false acts as an account with production access. */
  readonly sandbox: boolean;
  /**
   * The inbox a person opens at the endpoint's root, in place of aws-ses-v2-local's page: the answer to a GET
   * of `path`, or undefined for a path that is not the inbox's.
   */
  readonly inbox?: (path: string) => InboxAnswer | undefined;
  /**
   * SendEmail (v2) delivered in this process, once the front has accepted it: aws-ses-v2-local's HTTP server
   * reads JSON bodies up to 25 MB only, and an SES v2 message may be 40 MB after base64 encoding.
   */
  readonly sendEmail?: (request: unknown) => Promise<{ readonly status: number; readonly body: unknown }>;
}

export interface SesSandbox {
  readonly url: string;
  readonly identities: IdentityStore;
  close(): Promise<void>;
}

// Raw messages may be up to 40 MB (SES v2 quotas); the JSON around them adds base64 overhead.
const MAX_BODY_BYTES = 56 * 1024 * 1024;
// Local mode's region, for requests whose signature names none.
const FALLBACK_REGION = 'us-east-2';
const DAY_MS = 24 * 60 * 60 * 1000;
// Quotas SES reports, the sandbox's and a common first production quota. MaxSendRate is
// enforced (SendingRate below); Max24HourSend is reported only.
const SANDBOX_QUOTA = { Max24HourSend: 200, MaxSendRate: 1 };
const PRODUCTION_QUOTA = { Max24HourSend: 50_000, MaxSendRate: 14 };

/**
 * The sending-rate refusal. SES v2 (REST) answers TooManyRequestsException with HTTP 429 (SES
 * API v2 reference, SendEmail, "Errors"); the v1 query API answers a `Throttling` error with
 * HTTP 400; both say "Maximum sending rate exceeded." (SES developer guide, "Errors related
 * to the sending quotas for your Amazon SES account",
 * https://docs.aws.amazon.com/ses/latest/dg/manage-sending-quotas-errors.html, and the AWS
 * Messaging blog post "How to handle a 'Throttling – Maximum sending rate exceeded' error").
 */
const MAX_SENDING_RATE_EXCEEDED = 'Maximum sending rate exceeded.';
const throttled = (queryApi: boolean) =>
  queryApi
    ? new SesError('Throttling', 400, MAX_SENDING_RATE_EXCEEDED)
    : new SesError('TooManyRequestsException', 429, MAX_SENDING_RATE_EXCEEDED);

/**
 * The maximum sending rate. Quotas count recipients, not messages (SES developer guide,
 * "Service quotas in Amazon SES", https://docs.aws.amazon.com/ses/latest/dg/quotas.html: in the
 * sandbox 1 email per second). The allowance fills at `perSecond` up to one second's worth; a
 * message is accepted while at least one email's worth is left and then takes one per
 * recipient, so a message to three recipients holds the next back for three seconds at 1 per
 * second.
 */
class SendingRate {
  #allowance: number;
  #at: number;

  constructor(
    readonly perSecond: number,
    now: number,
  ) {
    this.#allowance = perSecond;
    this.#at = now;
  }

  /** Takes the recipients' share; false (nothing taken) when the rate is exceeded. */
  take(recipients: number, now: number): boolean {
    const elapsed = Math.max(0, now - this.#at);
    this.#allowance = Math.min(this.perSecond, this.#allowance + (elapsed / 1000) * this.perSecond);
    this.#at = now;
    if (this.#allowance < 1) return false;
    this.#allowance -= recipients;
    return true;
  }

  /** Gives a share back: the message it was taken for was not sent after all. */
  giveBack(recipients: number): void {
    this.#allowance = Math.min(this.perSecond, this.#allowance + recipients);
  }
}

/** Region of the request's SigV4 credential scope, as SES names it in its refusal. */
function regionOf(req: IncomingMessage): string {
  const scope = /Credential=[^/,\s]+\/\d{8}\/([a-z0-9-]+)\//.exec(req.headers.authorization ?? '');
  return scope?.[1] ?? FALLBACK_REGION;
}

function identityView(identity: EmailIdentity) {
  const verified = identity.status === 'SUCCESS';
  return {
    IdentityType: identity.type,
    FeedbackForwardingStatus: true,
    VerifiedForSendingStatus: verified,
    VerificationStatus: identity.status,
    DkimAttributes: {
      SigningEnabled: identity.type === 'DOMAIN',
      Status: identity.type === 'DOMAIN' ? identity.status : 'NOT_STARTED',
      SigningAttributesOrigin: 'AWS_SES',
    },
    MailFromAttributes: { BehaviorOnMxFailure: 'USE_DEFAULT_VALUE' },
    Policies: {},
    Tags: [],
  };
}

type Route =
  | { readonly op: 'send'; readonly mailing: (body: Buffer) => Mailing | undefined }
  | { readonly op: 'account' | 'createIdentity' }
  | { readonly op: 'getIdentity' | 'deleteIdentity'; readonly identity: string };

function routeOf(method: string | undefined, path: string): Route | undefined {
  if (method === 'POST' && path === '/v2/email/outbound-emails') return { op: 'send', mailing: sendEmailMailing };
  if (method === 'POST' && path === '/v2/email/outbound-bulk-emails')
    return { op: 'send', mailing: sendBulkEmailMailing };
  if (method === 'POST' && path === '/')
    return { op: 'send', mailing: (body) => v1Mailing(new URLSearchParams(body.toString('utf8'))) };
  if (method === 'GET' && path === '/v2/email/account') return { op: 'account' };
  if (method === 'POST' && path === '/v2/email/identities') return { op: 'createIdentity' };
  const identity = /^\/v2\/email\/identities\/([^/]+)$/.exec(path)?.[1];
  if (identity !== undefined && (method === 'GET' || method === 'DELETE')) {
    let name: string;
    try {
      name = decodeURIComponent(identity);
    } catch {
      name = identity;
    }
    return { op: method === 'GET' ? 'getIdentity' : 'deleteIdentity', identity: name };
  }
  return undefined;
}

/** The SES v1 query API (form posts to `/`), which answers in XML. */
const isQueryApi = (req: IncomingMessage) => req.url === '/' || req.url?.startsWith('/?') === true;

function sendSesError(req: IncomingMessage, res: ServerResponse, error: SesError): void {
  const requestId = randomUUID();
  if (isQueryApi(req)) {
    // The v1 query API answers in XML.
    const escaped = error.message.replace(/[<>&]/g, (c) => ({ '<': '&lt;', '>': '&gt;', '&': '&amp;' })[c] ?? c);
    const xml = `<ErrorResponse xmlns="http://ses.amazonaws.com/doc/2010-12-01/"><Error><Type>Sender</Type><Code>${error.type}</Code><Message>${escaped}</Message></Error><RequestId>${requestId}</RequestId></ErrorResponse>`;
    res.writeHead(error.status, {
      'content-type': 'text/xml',
      'content-length': Buffer.byteLength(xml),
      'x-amzn-requestid': requestId,
    });
    res.end(xml);
    return;
  }
  sendJson(
    res,
    error.status,
    { message: error.message },
    { 'x-amzn-errortype': error.type, 'x-amzn-requestid': requestId },
  );
}

/** Passes a request to aws-ses-v2-local and its answer back; resolves with the answer's status. */
function forward(target: URL, req: IncomingMessage, res: ServerResponse, body?: Buffer): Promise<number> {
  return new Promise((resolve) => {
    const upstream = request(
      { hostname: target.hostname, port: target.port, method: req.method, path: req.url, headers: req.headers },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
        resolve(answer.statusCode ?? 502);
      },
    );
    upstream.on('error', (error) => {
      if (res.headersSent) res.destroy(error);
      else sendJson(res, 502, { message: `The mail capture did not answer: ${error.message}` });
      resolve(502);
    });
    if (body) upstream.end(body);
    else req.pipe(upstream);
  });
}

/** Delivers an accepted request in this process and answers with the capture's reply; resolves with its status. */
async function deliver(
  sendEmail: NonNullable<SesSandboxOptions['sendEmail']>,
  request: unknown,
  res: ServerResponse,
): Promise<number> {
  const answer = await sendEmail(request);
  sendJson(res, answer.status, answer.body);
  return answer.status;
}

export async function startSesSandbox(options: SesSandboxOptions): Promise<SesSandbox> {
  const target = new URL(options.targetUrl);
  const identities = new IdentityStore();
  identities.verify(options.verifiedIdentities);
  /** Times of accepted messages, one per recipient, for SentLast24Hours. */
  let sent: number[] = [];
  const rate = new SendingRate((options.sandbox ? SANDBOX_QUOTA : PRODUCTION_QUOTA).MaxSendRate, Date.now());

  const refusal = (mailing: Mailing, region: string): SesError | undefined => {
    const failed = new Set<string>();
    for (const sender of mailing.senders) if (!identities.covers(addressOf(sender))) failed.add(sender.trim());
    for (const recipient of mailing.recipients) {
      const address = addressOf(recipient);
      if (options.sandbox && !isMailboxSimulator(address) && !identities.covers(address)) failed.add(recipient.trim());
    }
    if (failed.size === 0) return undefined;
    const names = [...failed].join(', ');
    return new SesError(
      'MessageRejected',
      400,
      `Email address is not verified. The following identities failed the check in region ${region.toUpperCase()}: ${names}`,
    );
  };

  const handle = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const path = new URL(req.url ?? '/', 'http://localhost').pathname;
    const page = req.method === 'GET' ? options.inbox?.(path) : undefined;
    if (page) {
      res.writeHead(page.status, { ...page.headers, 'content-length': Buffer.byteLength(page.body) });
      res.end(page.body);
      return;
    }
    const route = routeOf(req.method, path);
    // Unsigned requests get aws-ses-v2-local's own refusal, before any SES semantics apply.
    if (!route || !req.headers.authorization) {
      await forward(target, req, res);
      return;
    }
    let body: Buffer;
    try {
      body = await readBody(req, MAX_BODY_BYTES);
    } catch (error) {
      if (error instanceof PayloadTooLargeError) throw badRequest(error.message);
      throw error;
    }
    switch (route.op) {
      case 'send': {
        const mailing = route.mailing(body);
        if (mailing) {
          const refused = refusal(mailing, regionOf(req));
          if (refused) throw refused;
          // Only a message SES would otherwise accept uses the rate; a refused one is dropped.
          if (!rate.take(mailing.recipients.length, Date.now())) throw throttled(isQueryApi(req));
        }
        // Only SendEmail's mailing carries its request: it is delivered in this process, the others forwarded.
        const status =
          options.sendEmail && mailing?.request !== undefined
            ? await deliver(options.sendEmail, mailing.request, res)
            : await forward(target, req, res, body);
        if (mailing && status >= 200 && status < 300) {
          const now = Date.now();
          sent = [...sent.filter((at) => at > now - DAY_MS), ...mailing.recipients.map(() => now)];
        } else if (mailing) {
          rate.giveBack(mailing.recipients.length);
        }
        return;
      }
      case 'account':
        sendJson(res, 200, {
          DedicatedIpAutoWarmupEnabled: false,
          EnforcementStatus: 'HEALTHY',
          ProductionAccessEnabled: !options.sandbox,
          SendingEnabled: true,
          SendQuota: {
            ...(options.sandbox ? SANDBOX_QUOTA : PRODUCTION_QUOTA),
            SentLast24Hours: sent.filter((at) => at > Date.now() - DAY_MS).length,
          },
          SuppressionAttributes: { SuppressedReasons: [] },
        });
        return;
      case 'createIdentity': {
        const identity = identities.create(parseJson(body, createIdentitySchema).data.EmailIdentity);
        const view = identityView(identity);
        sendJson(res, 200, {
          IdentityType: view.IdentityType,
          VerifiedForSendingStatus: view.VerifiedForSendingStatus,
          DkimAttributes: view.DkimAttributes,
        });
        return;
      }
      case 'getIdentity':
        sendJson(res, 200, identityView(identities.get(route.identity)));
        return;
      case 'deleteIdentity':
        identities.delete(route.identity);
        sendJson(res, 200, {});
        return;
    }
  };

  const server = createServer((req, res) => {
    handle(req, res).catch((error: unknown) => {
      if (res.headersSent) {
        res.destroy();
        return;
      }
      if (error instanceof SesError) sendSesError(req, res, error);
      else if (error instanceof IdentityError)
        sendSesError(req, res, new SesError(error.type, error.type === 'NotFoundException' ? 404 : 400, error.message));
      else
        sendSesError(
          req,
          res,
          new SesError('InternalFailure', 500, error instanceof Error ? error.message : String(error)),
        );
    });
  });
  const port = await listen(server, options.port, options.host);
  return { url: httpUrl(options.host, port), identities, close: () => closeServer(server) };
}

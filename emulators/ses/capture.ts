import { createServer, type Server } from 'node:http';
import { readFile, rename, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { createRequire } from 'node:module';
import type { Email } from 'aws-ses-v2-local/dist/store.js';
import { closeServer, httpUrl, listen, sendJson } from '../shared/http.ts';
import { inboxAnswer } from './inbox.ts';
import { newestFirst } from './messages.ts';
import { startSesSandbox, type SesSandbox } from './sandbox.ts';

export interface MailCaptureOptions {
  readonly host: string;
  /** SES v2 endpoint (the sandbox front) and inbox page. */
  readonly port: number;
  /** JSON list of the captured messages. */
  readonly apiPort: number;
  /** Captured messages are kept in `<dataDir>/mail.json` across restarts. */
  readonly dataDir: string;
  /**
   * Addresses and domains verified in the local SES account from the start. Everything the
   * product sends through `sesEndpoint` must be from (and, in the sandbox, to) one of them.
   */
  readonly verifiedIdentities: readonly string[];
  /** SES sandbox, as in a new AWS account (default true); false acts as production access. */
  readonly sandbox?: boolean;
}

export interface MailCapture {
  /** SES endpoint for the SDK (`endpoint` of SESv2Client): sandboxed, as a new AWS account is. */
  readonly sesEndpoint: string;
  /**
   * aws-ses-v2-local itself, past the sandbox: delivers anything into the capture. Only for
   * mail that does not come from the product's own SES calls (see `cognitoMailSender`).
   */
  readonly captureEndpoint: string;
  readonly inboxUrl: string;
  readonly apiUrl: string;
  close(): Promise<void>;
}

// aws-ses-v2-local is CommonJS with a `default` export, which ESM loaders and test runners
// unwrap differently; `require` gives the same module objects (and one shared store) everywhere.
const require = createRequire(import.meta.url);
const { default: startSesServer } = require('aws-ses-v2-local') as {
  default: (config?: Partial<{ host: string; port: number }>) => Promise<Server>;
};
const { clearStore, getStoreReadonly } = require('aws-ses-v2-local/dist/store.js') as {
  clearStore: () => void;
  getStoreReadonly: () => { emails: Email[] };
};

/** aws-ses-v2-local's SendEmail operation, an Express handler: reads `req.body`, answers `res.status().send()`. */
interface OperationReply {
  status(code: number): OperationReply;
  send(body: unknown): OperationReply;
}
const { default: sendEmailOperation } = require('aws-ses-v2-local/dist/v2/sendEmail.js') as {
  default: (req: { body: unknown }, res: OperationReply, next: () => void) => void;
};

/**
 * aws-ses-v2-local's own SendEmail (Simple, Raw and Template content alike, into the same store), called with
 * the request the sandbox front has read and accepted: through its HTTP server, JSON bodies over 25 MB are
 * refused, while SES v2 takes messages up to 40 MB after base64 encoding.
 */
function sendEmailInProcess(request: unknown): Promise<{ status: number; body: unknown }> {
  return new Promise((resolve) => {
    let status = 200;
    const reply: OperationReply = {
      status(code) {
        status = code;
        return reply;
      },
      send(body) {
        resolve({ status, body });
        return reply;
      },
    };
    sendEmailOperation({ body: request }, reply, () =>
      resolve({ status: 500, body: { message: 'The mail capture did not answer' } }),
    );
  });
}

const MAIL_FILE = 'mail.json';
const API_PATH = '/messages';

async function restore(file: string): Promise<void> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return;
    throw error;
  }
  const saved: unknown = JSON.parse(text);
  if (!Array.isArray(saved))
    throw new Error(`${file} does not hold a list of messages; delete it or start with --reset`);
  // aws-ses-v2-local keeps its store in memory only; putting the saved messages back
  // (rather than sending them again) keeps them out of any SMTP relay it is set up with.
  getStoreReadonly().emails.push(...(saved as Email[]));
}

async function persist(file: string): Promise<void> {
  const partial = `${file}.partial`;
  await writeFile(partial, JSON.stringify(getStoreReadonly().emails));
  await rename(partial, file);
}

/**
 * The SES stand-in: aws-ses-v2-local (SES v2 API) in this process behind the SES sandbox front,
 * which also serves the inbox page (inbox.ts) at its root and the attachments' downloads, and
 * next to it a small JSON endpoint listing the messages newest first with to, subject, text and
 * attachments, which is what tests and tools need and what the package's `/store` lacks.
 */
export async function startMailCapture({
  host,
  port,
  apiPort,
  dataDir,
  verifiedIdentities,
  sandbox = true,
}: MailCaptureOptions): Promise<MailCapture> {
  const file = join(dataDir, MAIL_FILE);
  // The store is a module singleton: start from what this data directory holds only.
  clearStore();
  await restore(file);

  // aws-ses-v2-local takes any free port: only the sandbox front is reached from outside.
  const ses = await startSesServer({ host, port: 0 });
  const captureUrl = httpUrl(host, (ses.address() as { port: number }).port);
  let front: SesSandbox;
  try {
    front = await startSesSandbox({
      host,
      port,
      targetUrl: captureUrl,
      verifiedIdentities,
      sandbox,
      inbox: (path) => inboxAnswer(path, () => newestFirst(getStoreReadonly().emails)),
      sendEmail: sendEmailInProcess,
    });
  } catch (error) {
    await closeServer(ses);
    throw error;
  }

  const api = createServer((req, res) => {
    const path = new URL(req.url ?? '/', 'http://localhost').pathname;
    if (req.method !== 'GET' || path !== API_PATH) {
      sendJson(res, 404, { message: `Only GET ${API_PATH} is served here` });
      return;
    }
    sendJson(res, 200, newestFirst(getStoreReadonly().emails), { 'cache-control': 'no-store' });
  });
  let boundApiPort: number;
  try {
    boundApiPort = await listen(api, apiPort, host);
  } catch (error) {
    await Promise.all([front.close(), closeServer(ses)]);
    throw error;
  }

  return {
    sesEndpoint: front.url,
    captureEndpoint: captureUrl,
    inboxUrl: `${front.url}/`,
    apiUrl: `${httpUrl(host, boundApiPort)}${API_PATH}`,
    async close() {
      await Promise.all([closeServer(api), front.close(), closeServer(ses)]);
      await persist(file);
    },
  };
}

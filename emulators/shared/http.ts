import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * How long an idle keep-alive connection stays open. Node's default (5 s) is shorter than AWS
 * endpoints hold one, and a client whose event loop lags (a loaded test machine) can send on a
 * connection the server has just closed: the request fails with a network error, which AWS
 * would not cause. Clients (undici, the SDK's agent) drop idle connections well before this.
 */
const IDLE_CONNECTION_MS = 65_000;

/** Starts listening and resolves with the bound port (useful with port 0). */
export function listen(server: Server, port: number, host: string): Promise<number> {
  server.keepAliveTimeout = IDLE_CONNECTION_MS;
  // Node requires the headers limit to exceed the keep-alive one, or it cuts slow headers short.
  server.headersTimeout = IDLE_CONNECTION_MS + 1_000;
  return new Promise((resolve, reject) => {
    const onError = (error: Error) => reject(error);
    server.once('error', onError);
    server.listen(port, host, () => {
      server.off('error', onError);
      resolve((server.address() as AddressInfo).port);
    });
  });
}

/** Closes the server and drops idle keep-alive connections so the port is freed at once. */
export function closeServer(server: Server): Promise<void> {
  return new Promise((resolve, reject) => {
    if (!server.listening) {
      resolve();
      return;
    }
    server.close((error) => (error ? reject(error) : resolve()));
    server.closeAllConnections();
  });
}

export function httpUrl(host: string, port: number): string {
  return `http://${host.includes(':') ? `[${host}]` : host}:${port}`;
}

export class PayloadTooLargeError extends Error {
  constructor(readonly limitBytes: number) {
    super(`Request must be smaller than ${limitBytes} bytes`);
    this.name = 'PayloadTooLargeError';
  }
}

/** The whole request body, refusing more than `limitBytes` without buffering the excess. */
export function readBody(req: IncomingMessage, limitBytes: number): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const declared = Number(req.headers['content-length']);
    if (Number.isFinite(declared) && declared > limitBytes) {
      req.resume();
      reject(new PayloadTooLargeError(limitBytes));
      return;
    }
    const chunks: Buffer[] = [];
    let size = 0;
    let refused = false;
    req.on('data', (chunk: Buffer) => {
      if (refused) return;
      size += chunk.length;
      if (size > limitBytes) {
        refused = true;
        reject(new PayloadTooLargeError(limitBytes));
        return;
      }
      chunks.push(chunk);
    });
    req.on('end', () => {
      if (!refused) resolve(Buffer.concat(chunks));
    });
    req.on('error', reject);
  });
}

export function sendJson(
  res: ServerResponse,
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
): void {
  const payload = JSON.stringify(body);
  res.writeHead(status, {
    'content-type': 'application/json',
    'content-length': Buffer.byteLength(payload),
    ...headers,
  });
  res.end(payload);
}

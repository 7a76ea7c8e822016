import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import { createServer, type ServerResponse } from 'node:http';
import { extname, join, normalize, sep } from 'node:path';
import { runtimeConfigSchema, type RuntimeConfig } from '#contracts/config.ts';
import { securityHeaders, type CspSources } from '#contracts/security-headers.ts';
import { closeServer, httpUrl, listen } from '#emulators/shared/http.ts';

const CONTENT_TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json',
  '.map': 'application/json',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.gif': 'image/gif',
  '.webp': 'image/webp',
  '.ico': 'image/x-icon',
  '.woff': 'font/woff',
  '.woff2': 'font/woff2',
  '.txt': 'text/plain; charset=utf-8',
  '.webmanifest': 'application/manifest+json',
};

export interface WebServerOptions {
  readonly host: string;
  readonly port: number;
  /** The built SPA (web/dist). */
  readonly distDir: string;
  readonly config: RuntimeConfig;
  /** The local addresses the CSP lets the SPA reach and frame. */
  readonly csp: CspSources;
}

export interface WebServer {
  readonly url: string;
  close(): Promise<void>;
}

/** The file under `root` a URL path names, or undefined when it would leave the root. */
export function resolveStaticPath(root: string, urlPath: string): string | undefined {
  let decoded: string;
  try {
    decoded = decodeURIComponent(urlPath);
  } catch {
    return undefined;
  }
  if (decoded.includes('\0')) return undefined;
  const path = normalize(join(root, decoded));
  return path === root || path.startsWith(root.endsWith(sep) ? root : `${root}${sep}`) ? path : undefined;
}

async function isFile(path: string): Promise<boolean> {
  try {
    return (await stat(path)).isFile();
  } catch {
    return false;
  }
}

/**
 * The SPA as CloudFront serves it: the same security headers (CSP for the local addresses),
 * `/config.json` for the local endpoints, and unknown routes answered with index.html.
 * A missing file with an extension stays a 404, so a stale chunk fails visibly.
 */
export async function startWebServer(options: WebServerOptions): Promise<WebServer> {
  const config = runtimeConfigSchema.parse(options.config);
  const configBody = JSON.stringify(config);
  const headers = securityHeaders(options.csp);
  const root = normalize(options.distDir);
  const indexFile = join(root, 'index.html');

  const sendFile = (res: ServerResponse, path: string, head: boolean, cacheControl: string) => {
    const type = CONTENT_TYPES[extname(path).toLowerCase()] ?? 'application/octet-stream';
    res.writeHead(200, { ...headers, 'content-type': type, 'cache-control': cacheControl });
    if (head) {
      res.end();
      return;
    }
    const stream = createReadStream(path);
    stream.on('error', () => res.destroy());
    stream.pipe(res);
  };

  const server = createServer((req, res) => {
    req.resume();
    const head = req.method === 'HEAD';
    if (req.method !== 'GET' && !head) {
      res.writeHead(405, { ...headers, allow: 'GET, HEAD' }).end();
      return;
    }
    const pathname = new URL(req.url ?? '/', 'http://localhost').pathname;
    if (pathname === '/config.json') {
      res.writeHead(200, { ...headers, 'content-type': 'application/json', 'cache-control': 'no-store' });
      res.end(head ? undefined : configBody);
      return;
    }
    const path = resolveStaticPath(root, pathname);
    if (path === undefined) {
      res.writeHead(400, { ...headers, 'content-type': 'text/plain; charset=utf-8' }).end('Bad request path');
      return;
    }
    void (async () => {
      if (path !== root && (await isFile(path))) {
        // Vite fingerprints everything under assets/; other files may change between builds.
        const immutable = pathname.startsWith('/assets/');
        sendFile(res, path, head, immutable ? 'public, max-age=31536000, immutable' : 'no-cache');
      } else if (extname(pathname) !== '') {
        res.writeHead(404, { ...headers, 'content-type': 'text/plain; charset=utf-8' }).end('Not found');
      } else {
        sendFile(res, indexFile, head, 'no-cache');
      }
    })();
  });
  const port = await listen(server, options.port, options.host);
  return { url: httpUrl(options.host, port), close: () => closeServer(server) };
}

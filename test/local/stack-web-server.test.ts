import { request } from 'node:http';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RuntimeConfig } from '#contracts/config.ts';
import { resolveStaticPath, startWebServer, type WebServer } from '#local/web-server.ts';

const config: RuntimeConfig = {
  productName: 'TVIQ',
  region: 'us-east-2',
  userPoolId: 'us-east-2_AbCdEf123',
  userPoolClientId: 'client',
  cognitoEndpoint: 'http://127.0.0.1:4401',
  graphqlUrl: 'http://127.0.0.1:4402/graphql',
  functions: {
    embed: 'http://127.0.0.1:4403/',
    quicksightAdmin: 'http://127.0.0.1:4404/',
    userAdmin: 'http://127.0.0.1:4405/',
    mfa: 'http://127.0.0.1:4406/',
    contact: 'http://127.0.0.1:4407/',
  },
};

/** A raw GET, so that paths reach the server exactly as written (fetch normalizes `..`). */
function rawGet(url: string, path: string): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = request(`${url}${path}`, { method: 'GET', path }, (res) => {
      let body = '';
      res.on('data', (chunk: Buffer) => (body += chunk.toString()));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
    });
    req.on('error', reject);
    req.end();
  });
}

describe('local web server', () => {
  let dist: string;
  let server: WebServer;

  beforeAll(async () => {
    dist = await mkdtemp(join(tmpdir(), 'portal-web-test-'));
    await mkdir(join(dist, 'assets'));
    await writeFile(join(dist, 'index.html'), '<!doctype html><title>Portal</title>');
    await writeFile(join(dist, 'assets', 'app-1234.js'), 'console.log(1)');
    await writeFile(join(dist, 'logo.svg'), '<svg/>');
    server = await startWebServer({
      host: '127.0.0.1',
      port: 0,
      distDir: dist,
      config,
      csp: { connectSrc: ['http://127.0.0.1:4401', 'http://127.0.0.1:4402'], frameSrc: ['http://127.0.0.1:4408'] },
    });
  });

  afterAll(async () => {
    await server?.close();
    await rm(dist, { recursive: true, force: true });
  });

  it('sends the site security headers with the local addresses in the CSP', async () => {
    const response = await fetch(`${server.url}/login`);
    expect(response.headers.get('content-security-policy')).toBe(
      "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; font-src 'self'; " +
        "connect-src 'self' http://127.0.0.1:4401 http://127.0.0.1:4402; frame-src http://127.0.0.1:4408; object-src 'none'; " +
        "base-uri 'none'; form-action 'self'; frame-ancestors 'none'",
    );
    expect(response.headers.get('strict-transport-security')).toBe('max-age=63072000; includeSubDomains');
    expect(response.headers.get('x-frame-options')).toBe('DENY');
    expect(response.headers.get('x-content-type-options')).toBe('nosniff');
    expect(response.headers.get('referrer-policy')).toBe('strict-origin-when-cross-origin');
  });

  it('sends the permissions and opener policies, fullscreen allowed for the local dashboard pages only', async () => {
    for (const path of ['/login', '/config.json', '/assets/app-1234.js']) {
      const response = await fetch(`${server.url}${path}`);
      expect(response.headers.get('cross-origin-opener-policy'), path).toBe('same-origin');
      const policy = response.headers.get('permissions-policy') ?? '';
      expect(policy, path).toContain('camera=()');
      expect(policy, path).toContain('microphone=()');
      expect(policy, path).toContain('geolocation=()');
      expect(policy, path).toContain('payment=()');
      expect(policy, path).toContain('usb=()');
      expect(policy, path).toContain('fullscreen=(self "http://127.0.0.1:4408")');
    }
  });

  it('answers app routes with index.html and files with their type and caching', async () => {
    const route = await fetch(`${server.url}/admin/users`);
    expect(route.status).toBe(200);
    expect(await route.text()).toContain('<title>Portal</title>');
    expect(route.headers.get('cache-control')).toBe('no-cache');

    const asset = await fetch(`${server.url}/assets/app-1234.js`);
    expect(asset.headers.get('content-type')).toBe('text/javascript; charset=utf-8');
    expect(asset.headers.get('cache-control')).toContain('immutable');
    expect((await fetch(`${server.url}/logo.svg`)).headers.get('content-type')).toBe('image/svg+xml');
  });

  it('keeps a missing file a 404 and refuses paths outside the build', async () => {
    expect((await fetch(`${server.url}/assets/gone-0000.js`)).status).toBe(404);
    const escape = await rawGet(server.url, '/../../etc/passwd');
    expect(escape.body).not.toContain('root:');
    expect(resolveStaticPath('/srv/dist', '/%2e%2e/secret')).toBeUndefined();
    expect(resolveStaticPath('/srv/dist', '/a/../b.js')).toBe('/srv/dist/b.js');
    expect(resolveStaticPath('/srv/dist', '/%E0%A4%A')).toBeUndefined();
  });

  it('serves /config.json for the local endpoints, uncached', async () => {
    const response = await fetch(`${server.url}/config.json`);
    expect(response.headers.get('cache-control')).toBe('no-store');
    expect(await response.json()).toEqual(config);
  });

  it('allows only GET and HEAD', async () => {
    expect((await fetch(`${server.url}/login`, { method: 'POST' })).status).toBe(405);
    const head = await fetch(`${server.url}/login`, { method: 'HEAD' });
    expect(head.status).toBe(200);
    expect(await head.text()).toBe('');
  });

  it('refuses a configuration the SPA would reject', async () => {
    await expect(
      startWebServer({
        host: '127.0.0.1',
        port: 0,
        distDir: dist,
        config: { ...config, graphqlUrl: 'not a url' },
        csp: { connectSrc: [], frameSrc: [] },
      }),
    ).rejects.toThrow();
  });
});

import { createServer } from 'node:net';
import { describe, expect, it } from 'vitest';
import { ENV } from '../../contracts/env.ts';
import { tables } from '../../contracts/tables.ts';
import { handlerEnvironment } from '../../local/environment.ts';
import { assertPortsFree, findFreePortBase, PORT_COUNT, portLayout } from '../../local/ports.ts';
import { currentTotpCode, msUntilNextTotpStep } from '../../local/totp-code.ts';

describe('port layout', () => {
  it('gives every service its own port from the base', () => {
    const ports = portLayout(4400);
    expect(ports.web).toBe(4400);
    expect(new Set(Object.values(ports)).size).toBe(PORT_COUNT);
    expect(Math.max(...Object.values(ports))).toBe(4400 + PORT_COUNT - 1);
  });

  it('refuses a base whose block would not fit the unprivileged port range', () => {
    for (const bad of [80, 1023, 65_530, 4400.5, Number.NaN]) expect(() => portLayout(bad)).toThrow(/Port base/);
  });

  it('finds a block of ports that are all free', async () => {
    const base = await findFreePortBase();
    const servers = await Promise.all(
      Array.from({ length: PORT_COUNT }, (_, i) => new Promise<ReturnType<typeof createServer>>((resolve, reject) => {
        const server = createServer();
        server.once('error', reject);
        server.listen(base + i, '127.0.0.1', () => resolve(server));
      })),
    );
    expect(servers).toHaveLength(PORT_COUNT);
    await Promise.all(servers.map((s) => new Promise((resolve) => s.close(resolve))));
  });

  it('names the services whose ports are taken before anything starts', async () => {
    const base = await findFreePortBase();
    await expect(assertPortsFree(portLayout(base), '127.0.0.1')).resolves.toBeUndefined();
    const squatter = createServer();
    await new Promise<void>((resolve) => squatter.listen(base + 1, '127.0.0.1', resolve));
    try {
      await expect(assertPortsFree(portLayout(base), '127.0.0.1')).rejects.toThrow(`Port ${base + 1} (cognito) on 127.0.0.1 is in use`);
    } finally {
      await new Promise((resolve) => squatter.close(resolve));
    }
  });
});

describe('handler environment', () => {
  it('sets every variable the handlers read, with the local endpoints and table names', () => {
    const env = handlerEnvironment({
      region: 'us-east-2',
      webUrl: 'http://127.0.0.1:4400',
      cognito: { endpoint: 'http://127.0.0.1:4401', userPoolId: 'us-east-2_AbCdEf123', clientId: 'client', jwks: { keys: [] } },
      dynamodbEndpoint: 'http://127.0.0.1:4409',
      quicksightEndpoint: 'http://127.0.0.1:4408',
      sesEndpoint: 'http://127.0.0.1:4410',
    });
    for (const name of Object.values(ENV)) expect(env[name], name).toBeTruthy();
    for (const table of tables) expect(env[table.envVar]).toBe(`local-${table.id}`);
    expect(env[ENV.allowedOrigins]).toBe('http://127.0.0.1:4400');
    expect(JSON.parse(env[ENV.cognitoJwks]!)).toEqual({ keys: [] });
    expect(env.AWS_ACCESS_KEY_ID).toBe('local');
  });
});

describe('TOTP codes', () => {
  it('computes the RFC 6238 code of a base32 secret', () => {
    // RFC 6238 test vector (SHA-1, T = 59 s): secret "12345678901234567890", code 94287082 (8 digits) -> 287082.
    expect(currentTotpCode('GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ', 59_000)).toBe('287082');
    expect(msUntilNextTotpStep(59_000)).toBe(1_000);
  });
});

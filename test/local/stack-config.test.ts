import { createServer } from 'node:net';
import { spawnSync } from 'node:child_process';
import { mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ENV } from '#contracts/env.ts';
import { tables } from '#contracts/tables.ts';
import { localDeployment } from '#local/aws/local-deployment.ts';
import {
  functionEnvironment,
  invitationTemplate,
  localWebAuthn,
  templateValues,
  type LocalEndpoints,
} from '#local/environment.ts';
import { userPoolSettings } from '#local/aws/synth.ts';
import { SUPPORT_FROM_ADDRESS } from '#clients/local-stack.ts';
import {
  assertPortsFree,
  claimPortBlock,
  ephemeralPortFloor,
  findFreePortBase,
  PORT_COUNT,
  portLayout,
} from '#local/ports.ts';
import { currentTotpCode, msUntilNextTotpStep } from '#clients/authenticator-code.ts';

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
      Array.from(
        { length: PORT_COUNT },
        (_, i) =>
          new Promise<ReturnType<typeof createServer>>((resolve, reject) => {
            const server = createServer();
            server.once('error', reject);
            server.listen(base + i, '127.0.0.1', () => resolve(server));
          }),
      ),
    );
    expect(servers).toHaveLength(PORT_COUNT);
    await Promise.all(servers.map((s) => new Promise((resolve) => s.close(resolve))));
  });

  // Linux hands ports from ip_local_port_range to outgoing connections; a stack block
  // that reached into it could lose a port between the check and its own listen.
  // https://docs.kernel.org/networking/ip-sysctl.html (ip_local_port_range, default 32768 60999)
  it('keeps every block below the ephemeral port range', async () => {
    const claimsDir = await mkdtemp(join(tmpdir(), 'port-claims-'));
    try {
      const bases = new Set<number>();
      for (let i = 0; i < 40; i += 1) {
        const base = await findFreePortBase({ ephemeralFloor: 32_768, claimsDir });
        expect(base).toBeGreaterThanOrEqual(1024);
        expect(base + PORT_COUNT - 1).toBeLessThan(32_768);
        bases.add(base);
      }
      // Each pick is claimed for this process: no block is given twice.
      expect(bases.size).toBe(40);
      const narrow = await findFreePortBase({ ephemeralFloor: 20_010, claimsDir });
      expect(narrow + PORT_COUNT - 1).toBeLessThan(20_010);
      await expect(findFreePortBase({ ephemeralFloor: 1030, claimsDir })).rejects.toThrow(/No room/);
    } finally {
      await rm(claimsDir, { recursive: true, force: true });
    }
  });

  it('gives a block to one process at a time, and takes over the block of a process that is gone', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'port-claims-'));
    try {
      expect(claimPortBlock(21_000, dir)).toBe(true);
      // Already this process's.
      expect(claimPortBlock(21_000, dir)).toBe(false);
      // Held by a live process (the test runner that started this worker): this one backs off.
      await writeFile(join(dir, `21014.${process.ppid}`), '');
      expect(claimPortBlock(21_014, dir)).toBe(false);
      // Held by a process that has exited: its claim is removed and the block taken.
      const gone = spawnSync(process.execPath, ['-e', '']).pid;
      await writeFile(join(dir, `21028.${gone}`), '');
      expect(claimPortBlock(21_028, dir)).toBe(true);
      expect((await readdir(dir)).sort()).toEqual(
        [`21000.${process.pid}`, `21014.${process.ppid}`, `21028.${process.pid}`].sort(),
      );
      // The search skips a block another process holds, whatever its ports.
      const oneBlock = 20_000 + PORT_COUNT + 1;
      await writeFile(join(dir, `20000.${process.ppid}`), '');
      await expect(findFreePortBase({ ephemeralFloor: oneBlock, claimsDir: dir, attempts: 5 })).rejects.toThrow(
        /No block of 14 free ports/,
      );
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it("reads the first ephemeral port from the kernel setting, and falls back to Linux's default", async () => {
    const dir = await mkdtemp(join(tmpdir(), 'port-range-'));
    try {
      await writeFile(join(dir, 'range'), '40000\t60999\n');
      expect(ephemeralPortFloor(join(dir, 'range'))).toBe(40_000);
      await writeFile(join(dir, 'garbage'), 'none\n');
      expect(ephemeralPortFloor(join(dir, 'garbage'))).toBe(32_768);
      expect(ephemeralPortFloor(join(dir, 'missing'))).toBe(32_768);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('names the services whose ports are taken before anything starts', async () => {
    const base = await findFreePortBase();
    await expect(assertPortsFree(portLayout(base), '127.0.0.1')).resolves.toBeUndefined();
    const squatter = createServer();
    await new Promise<void>((resolve) => squatter.listen(base + 1, '127.0.0.1', resolve));
    try {
      await expect(assertPortsFree(portLayout(base), '127.0.0.1')).rejects.toThrow(
        `Port ${base + 1} (cognito) on 127.0.0.1 is in use`,
      );
    } finally {
      await new Promise((resolve) => squatter.close(resolve));
    }
  });
});

describe('function environment', () => {
  const endpoints: LocalEndpoints = {
    region: 'us-east-2',
    siteOrigin: 'http://localhost:4400',
    cognito: {
      endpoint: 'http://127.0.0.1:4401',
      userPoolId: 'us-east-2_AbCdEf123',
      clientId: 'client',
      jwks: { keys: [] },
    },
    dynamodbEndpoint: 'http://127.0.0.1:4409',
    quicksightEndpoint: 'http://127.0.0.1:4408',
    sesEndpoint: 'http://127.0.0.1:4410',
  };
  const credentials = { accessKeyId: 'ASIAFUNCTIONKEY', secretAccessKey: 'function-secret' };

  it("gives each function its synthesized variables resolved to local values, and no other function's", async () => {
    const deployment = await localDeployment();
    const values = templateValues(deployment, endpoints, 'error');
    const embed = functionEnvironment(deployment.functions.embed, values, endpoints, credentials);
    expect(embed[ENV.viewsTable]).toBe('local-Views');
    expect(embed[ENV.allowedOrigins]).toBe('http://localhost:4400');
    expect(embed[ENV.userPoolId]).toBe('us-east-2_AbCdEf123');
    expect(embed[ENV.embedSessionMinutes]).toBe('600');
    expect(JSON.parse(embed[ENV.cognitoJwks]!)).toEqual({ keys: [] });
    expect(embed.AWS_ACCESS_KEY_ID).toBe('ASIAFUNCTIONKEY');
    // Variables the embed construct does not set are missing, as in AWS.
    expect(embed[ENV.supportToAddress]).toBeUndefined();
    expect(embed[ENV.auditTable]).toBeUndefined();

    const mfa = functionEnvironment(deployment.functions.mfa, values, endpoints, credentials);
    expect(mfa[ENV.mfaConfiguration]).toBe('ON');
    // The State table only (Log out's record of ended sessions, read by every caller check).
    for (const table of tables)
      expect(mfa[table.envVar], table.envVar).toBe(table.envVar === ENV.stateTable ? 'local-State' : undefined);

    const contact = functionEnvironment(deployment.functions.contact, values, endpoints, credentials);
    expect(contact[ENV.supportFromAddress]).toBe(SUPPORT_FROM_ADDRESS);
    expect(contact[ENV.stateTable]).toBe('local-State');
  });

  it('names the variable and the reference when a value has no local stand-in', async () => {
    const deployment = await localDeployment();
    const values = templateValues(deployment, endpoints, 'error');
    const broken = { ...deployment.functions.embed, environment: { SOMETHING_ELSE: { Ref: 'NoSuchResource' } } };
    expect(() => functionEnvironment(broken, values, endpoints, credentials)).toThrow(
      'Environment variable SOMETHING_ELSE of',
    );
    expect(() => functionEnvironment(broken, values, endpoints, credentials)).toThrow(
      'Ref NoSuchResource has no local value',
    );
  });
});

describe('TOTP codes', () => {
  it('computes the RFC 6238 code of a base32 secret', () => {
    // RFC 6238 test vector (SHA-1, T = 59 s): secret "12345678901234567890", code 94287082 (8 digits) -> 287082.
    expect(currentTotpCode('GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ', 59_000)).toBe('287082');
    expect(msUntilNextTotpStep(59_000)).toBe(1_000);
  });
});

describe('the pool settings local mode takes from the template', () => {
  it('sends the synthesized invitation email with links to the local portal, and its temporary-password validity', async () => {
    const deployment = await localDeployment();
    const template = invitationTemplate(deployment, 'us-east-2', 'http://localhost:4400');
    expect(template.emailSubject).toBe('Your TVIQ account');
    expect(template.emailMessage).toContain('<code>{username}</code>');
    expect(template.emailMessage).toContain('<code>{####}</code>');
    expect(template.emailMessage).toContain('href="http://localhost:4400/login"');
    expect(template.emailMessage).not.toContain('local-distribution.invalid');
    expect(deployment.userPool.temporaryPasswordValidityDays).toBe(7);
  });

  it("carries the pool's passkey settings, with the local site's host as the relying party", async () => {
    const deployment = await localDeployment();
    const pool = deployment.userPool;
    expect(pool.allowedFirstAuthFactors).toEqual(['PASSWORD', 'WEB_AUTHN']);
    expect(pool.webAuthn).toEqual({
      relyingPartyId: { 'Fn::GetAtt': [deployment.resources.distribution, 'DomainName'] },
      userVerification: 'required',
      factorConfiguration: 'MULTI_FACTOR_WITH_USER_VERIFICATION',
    });
    expect(localWebAuthn(deployment, 'us-east-2', 'http://localhost:4400')).toEqual({
      relyingPartyId: 'localhost',
      userVerification: 'required',
      factorConfiguration: 'MULTI_FACTOR_WITH_USER_VERIFICATION',
    });
    // A relying party other than the site's distribution names a site local mode does not serve.
    const customDomain = {
      ...deployment,
      userPool: { ...pool, webAuthn: { ...pool.webAuthn!, relyingPartyId: 'portal.example.com' } },
    };
    expect(() => localWebAuthn(customDomain, 'us-east-2', 'http://localhost:4400')).toThrow(
      /passkey relying party is "portal.example.com", not the site's distribution/,
    );
    const withoutPasskeys = { ...deployment, userPool: { ...pool, webAuthn: undefined } };
    expect(localWebAuthn(withoutPasskeys, 'us-east-2', 'http://localhost:4400')).toBeUndefined();
  });

  it("reads a pool without a sign-in policy or passkey settings as Cognito's default: the password alone", () => {
    const pool = { Type: 'AWS::Cognito::UserPool', Properties: { MfaConfiguration: 'ON' } };
    const client = {
      Type: 'AWS::Cognito::UserPoolClient',
      Properties: { AccessTokenValidity: 5, IdTokenValidity: 60, RefreshTokenValidity: 30 },
    };
    const settings = userPoolSettings(pool, client);
    expect(settings.allowedFirstAuthFactors).toEqual(['PASSWORD']);
    expect(settings.webAuthn).toBeUndefined();
    const passkeys = { AllowedFirstAuthFactors: ['PASSWORD', 'WEB_AUTHN'] };
    expect(() =>
      userPoolSettings({ ...pool, Properties: { ...pool.Properties, Policies: { SignInPolicy: passkeys } } }, client),
    ).toThrow(/names no WebAuthnRelyingPartyID/);
    expect(
      userPoolSettings(
        {
          ...pool,
          Properties: {
            ...pool.Properties,
            Policies: { SignInPolicy: passkeys },
            WebAuthnRelyingPartyID: 'example.com',
          },
        },
        client,
      ).webAuthn,
    ).toEqual({ relyingPartyId: 'example.com', userVerification: 'preferred', factorConfiguration: 'SINGLE_FACTOR' });
  });
});

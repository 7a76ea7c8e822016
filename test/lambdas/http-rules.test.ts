import {
  AdminCreateUserCommand,
  AssociateSoftwareTokenCommand,
  InternalErrorException,
  ListUsersCommand,
  ListUsersInGroupCommand,
  SetUserMFAPreferenceCommand,
  VerifySoftwareTokenCommand,
} from '@aws-sdk/client-cognito-identity-provider';
import type { APIGatewayProxyStructuredResultV2 } from 'aws-lambda';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  ADMIN,
  type CallOptions,
  functionUrlEvent,
  type Handler,
  type Harness,
  invoke,
  lambdaContext,
  loadHandler,
  ORIGIN,
  startHarness,
  USER,
} from './support/harness.ts';

let h: Harness;
let userAdmin: Handler;
let mfa: Handler;
/** The functions log at INFO here; Powertools writes JSON lines to stdout and stderr, kept for the log test. */
const logLines: string[] = [];

beforeAll(async () => {
  for (const stream of [process.stdout, process.stderr]) {
    vi.spyOn(stream, 'write').mockImplementation((chunk: string | Uint8Array) => {
      logLines.push(String(chunk));
      return true;
    });
  }
  h = await startHarness({ POWERTOOLS_LOG_LEVEL: 'INFO' });
  userAdmin = await loadHandler('user-admin');
  mfa = await loadHandler('mfa');
});
afterAll(async () => {
  vi.restoreAllMocks();
  await h.close();
});
beforeEach(async () => {
  logLines.length = 0;
  await h.reset();
});

const asAdmin = async (options: Omit<Parameters<typeof invoke>[1], 'token'>) =>
  invoke(userAdmin, { token: await h.token(ADMIN), ...options });
/** The caller checks (live session, live Admins membership): reads that change nothing. */
const READ_COMMANDS = new Set(['GetUserCommand', 'AdminListGroupsForUserCommand']);
const allowOrigin = (headers: Record<string, unknown>) => headers['Access-Control-Allow-Origin'];

describe('request body rules', () => {
  it('answers 413 for a body above the cap and does nothing', async () => {
    const res = await asAdmin({
      body: { action: 'CREATE_USER', userEmail: 'a@b.co', password: 'Str0ng!Pass', padding: 'x'.repeat(70_000) },
    });
    expect(res).toMatchObject({ status: 413, body: { error: 'Request body is larger than 65536 bytes' } });
    expect(h.cognito.commandCalls(AdminCreateUserCommand)).toHaveLength(0);
  });

  it.each([
    ['malformed JSON', { rawBody: '{"action": "GET_USERS"' }, 400, 'Request body is not valid JSON'],
    ['an empty body', { rawBody: '' }, 400, 'Request body is required'],
    ['a JSON array', { body: [1, 2] }, 400, 'Request body must be a JSON object'],
    [
      'a non-JSON content type',
      { body: { action: 'GET_USERS' }, headers: { 'content-type': 'text/plain' } },
      415,
      'Content-Type must be application/json',
    ],
  ])('refuses %s', async (_label, options, status, error) => {
    const res = await asAdmin(options);
    expect(res).toMatchObject({ status, body: { error } });
    expect(h.cognito.calls().filter((c) => !READ_COMMANDS.has(c.args[0].constructor.name))).toHaveLength(0);
  });
});

describe('errors', () => {
  it('hides the cause of an unexpected failure (500, no stack, no message)', async () => {
    h.cognito.on(ListUsersInGroupCommand).resolves({ Users: [] });
    h.cognito.on(ListUsersCommand).rejects(new TypeError('secret detail at /var/task/index.mjs:1:2'));
    const res = await asAdmin({ body: { action: 'GET_USERS' } });
    expect(res).toEqual({ status: 500, headers: expect.anything(), body: { error: 'Internal server error' } });
  });

  it('answers 502 without internals when an AWS service fails unexpectedly', async () => {
    h.cognito.on(ListUsersInGroupCommand).resolves({ Users: [] });
    h.cognito.on(ListUsersCommand).rejects(new InternalErrorException({ message: 'internal detail', $metadata: {} }));
    const res = await asAdmin({ body: { action: 'GET_USERS' } });
    expect(res.status).toBe(502);
    expect(JSON.stringify(res.body)).not.toContain('internal detail');
  });
});

/** `invoke` with any method, as a function URL passes every method to its function. */
const invokeWithMethod = async (handler: Handler, method: string, options: CallOptions) => {
  const event = functionUrlEvent(options);
  event.requestContext.http.method = method;
  const result = (await handler(event as never, lambdaContext())) as APIGatewayProxyStructuredResultV2;
  return { status: result.statusCode, headers: result.headers ?? {}, body: JSON.parse(result.body ?? '{}') as unknown };
};

describe('methods', () => {
  const FUNCTIONS = [
    ['embed', 'GET'],
    ['quicksight-admin', 'POST'],
    ['user-admin', 'POST'],
    ['mfa', 'POST'],
    ['contact', 'POST'],
  ] as const;

  it.each(
    FUNCTIONS.flatMap(([name, own]) =>
      ['GET', 'POST', 'PUT', 'DELETE', 'PATCH', 'HEAD'].filter((m) => m !== own).map((m) => [name, own, m] as const),
    ),
  )(
    '%s (%s only) answers %s with 405 and Allow, before reading the body or calling a service',
    async (name, own, method) => {
      const handler = await loadHandler(name);
      const res = await invokeWithMethod(handler, method, {
        token: await h.token(ADMIN),
        body: { action: 'GET_USERS' },
      });
      expect(res).toMatchObject({
        status: 405,
        body: { error: `Method ${method} is not allowed; use ${own} or OPTIONS` },
      });
      expect(res.headers.allow).toBe(`${own}, OPTIONS`);
      expect(allowOrigin(res.headers)).toBe(ORIGIN);
      expect(h.cognito.calls()).toHaveLength(0);
    },
  );

  it('still serves its own method and answers preflights', async () => {
    const listed = await asAdmin({ body: { action: 'GET_AUDIT_LOG' } });
    expect(listed).toMatchObject({ status: 200, body: { entries: [] } });
    const preflight = await invoke(await loadHandler('embed'), {
      method: 'OPTIONS',
      headers: { 'access-control-request-method': 'GET' },
    });
    expect(preflight).toMatchObject({ status: 204, headers: { 'Access-Control-Allow-Methods': 'GET,OPTIONS' } });
  });
});

describe('CORS', () => {
  it('allows the configured origin on answers and on errors', async () => {
    const ok = await asAdmin({ body: { action: 'GET_AUDIT_LOG' } });
    const refused = await invoke(userAdmin, { body: { action: 'GET_USERS' } });
    expect([allowOrigin(ok.headers), allowOrigin(refused.headers)]).toEqual([ORIGIN, ORIGIN]);
  });

  it('allows no other origin', async () => {
    const res = await asAdmin({ body: { action: 'GET_AUDIT_LOG' }, headers: { origin: 'https://evil.example.com' } });
    expect(allowOrigin(res.headers)).toBeUndefined();
    expect(Object.values(res.headers)).not.toContain('*');
  });

  it('answers a preflight', async () => {
    const res = await invoke(userAdmin, { method: 'OPTIONS', headers: { 'access-control-request-method': 'POST' } });
    expect(res.status).toBe(204);
    expect(res.headers['Access-Control-Allow-Methods']).toBe('POST,OPTIONS');
  });
});

describe('logs', () => {
  it('record request id, actor, action and status, and never tokens, passwords, codes or secrets', async () => {
    const adminToken = await h.token(ADMIN);
    const userToken = await h.token(USER);
    h.cognito.on(AdminCreateUserCommand).rejects(new InternalErrorException({ message: 'down', $metadata: {} }));
    h.cognito.on(AssociateSoftwareTokenCommand).resolves({ SecretCode: 'SECRETSECRETSECRET' });
    h.cognito.on(VerifySoftwareTokenCommand).resolves({ Status: 'SUCCESS' });
    h.cognito.on(SetUserMFAPreferenceCommand).resolves({});

    await invoke(userAdmin, {
      token: adminToken,
      body: { action: 'CREATE_USER', userEmail: 'new@example.com', password: 'Pa55word!Secret' },
    });
    await invoke(mfa, { token: userToken, body: { action: 'ASSOCIATE_SOFTWARE_TOKEN' } });
    await invoke(mfa, { token: userToken, body: { action: 'VERIFY_SOFTWARE_TOKEN', mfaCode: '493817' } });
    const output = logLines.join('');

    const entries = output
      .split('\n')
      .filter((line) => line.startsWith('{'))
      .map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(entries.filter((e) => e.message === 'Request completed')).toEqual([
      expect.objectContaining({
        actor: ADMIN.email,
        action: 'CREATE_USER',
        status: 502,
        requestId: expect.any(String),
      }),
      expect.objectContaining({ actor: USER.email, action: 'ASSOCIATE_SOFTWARE_TOKEN', status: 200 }),
      expect.objectContaining({ actor: USER.email, action: 'VERIFY_SOFTWARE_TOKEN', status: 200 }),
    ]);
    for (const secret of [adminToken, userToken, 'Pa55word!Secret', 'SECRETSECRETSECRET', '493817'])
      expect(output).not.toContain(secret);
  });
});

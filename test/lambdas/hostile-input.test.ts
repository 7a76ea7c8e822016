import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { contactRequestSchema } from '#contracts/contact.ts';
import { EMBED_DASHBOARD_HEADER } from '#contracts/embed.ts';
import { mfaRequestSchema } from '#contracts/mfa.ts';
import { quicksightAdminRequestSchema } from '#contracts/quicksight-admin.ts';
import { userAdminRequestSchema } from '#contracts/user-admin.ts';
import {
  ADMIN,
  type CallResult,
  type Handler,
  type Harness,
  invoke,
  loadHandler,
  observeDynamoCommands,
  startHarness,
  USER,
} from './support/harness.ts';

/** A valid value for every request field of the contracts; a new field needs one here. */
const VALID: Record<string, unknown> = {
  userEmail: 'target@example.com',
  password: 'Str0ng!Pass',
  newEmail: 'renamed@example.com',
  newPassword: 'Str0ng!Pass2',
  limit: 10,
  nextToken: 'token',
  userRole: 'READER',
  dashboardId: 'sales-1',
  dashboardName: 'Sales',
  dashboardLink: 'https://example.com/sales',
  makeDefault: false,
  viewId: 'view-1',
  companyName: 'Acme',
  metadataId: 'record-1',
  description: 'Monthly sales',
  isActive: true,
  mfaCode: '123456',
  friendlyDeviceName: 'Phone',
  deviceKey: 'us-east-2_6a1f3c2e-9d4b-4c8e-a2f1-0b3c4d5e6f70',
  enabled: true,
  preferred: true,
  email: USER.email,
  subject: 'Help',
  message: 'The dashboard stays blank.',
  priority: 'high',
  sendInvitation: false,
  fullListing: false,
  dashboards: ['sales-1'],
  defaultDashboard: 'sales-1',
  role: 'Users',
  filter: { action: 'CREATE_USER', from: '2026-01-01T00:00:00.000Z' },
  format: 'csv',
  from: '2026-03-01',
  to: '2026-03-31',
  company: 'Acme',
  confirmSharedData: false,
  sharedData: false,
  name: 'Acme',
  kind: 'manufacturer',
  companyId: 'abc123',
  companies: ['Acme'],
  owner: false,
  fix: false,
  subscriptionId: '6f1c2a3b-4d5e-4f60-8a7b-9c0d1e2f3a4b',
  credentialId: 'Y3JlZGVudGlhbC0x',
  credential: {
    id: 'Y3JlZGVudGlhbC0x',
    rawId: 'Y3JlZGVudGlhbC0x',
    type: 'public-key',
    response: { clientDataJSON: 'eyJ0eXBlIjoid2ViYXV0aG4uY3JlYXRlIn0', attestationObject: 'o2NmbXRkbm9uZQ' },
    clientExtensionResults: {},
  },
};

type Body = Record<string, unknown>;

/** One valid body per action of a discriminated union, every optional field filled in. */
const bodiesOf = (schema: z.ZodDiscriminatedUnion<z.ZodObject[]>): Body[] =>
  schema.options.map((option) => {
    const body: Body = {};
    for (const [field, fieldSchema] of Object.entries(option.shape)) {
      if (field === 'action') body.action = (fieldSchema as z.ZodLiteral).value;
      else if (field in VALID) body[field] = VALID[field];
      else throw new Error(`No valid sample for field ${field}: add one to VALID`);
    }
    return body;
  });

const contactBody: Body = {
  email: VALID.email,
  subject: VALID.subject,
  message: VALID.message,
  priority: VALID.priority,
};

const DEEP = 30_000;
/** A value the raw body carries as is (JSON.stringify cannot write these). */
const raw = (json: string) => ({ raw: json });
type Hostile = { raw: string } | unknown;

const inside = (valid: unknown, char: string) =>
  typeof valid === 'string' && valid.length > 1 ? `${valid.slice(0, 2)}${char}${valid.slice(2)}` : `a${char}b`;

/** Hostile replacements of one field's valid value. */
const HOSTILE: [string, (valid: unknown) => Hostile][] = [
  ['an object with toString', () => ({ toString: 'x' })],
  ['an object with toString and valueOf', () => ({ toString: 'x', valueOf: 'y' })],
  ['a NUL character', (valid) => inside(valid, '\u0000')],
  ['an RTL override', (valid) => inside(valid, '\u202E')],
  ['a line separator (U+2028)', (valid) => inside(valid, '\u2028')],
  ['a 70 KB string', () => 'x'.repeat(70_000)],
  ['JSON nested 30,000 deep', () => raw(`${'['.repeat(DEEP)}${']'.repeat(DEEP)}`)],
  ['a __proto__ key', () => raw('{"__proto__":{"isAdmin":true},"toString":"x"}')],
];

const isRaw = (value: Hostile): value is { raw: string } =>
  typeof value === 'object' && value !== null && 'raw' in value && Object.keys(value).length === 1;

/** The body as text with one field replaced (raw values spliced into the JSON text). */
const withField = (body: Body, field: string, value: Hostile): string => {
  if (!isRaw(value)) return JSON.stringify({ ...body, [field]: value });
  const placeholder = '\u0001hostile\u0001';
  return JSON.stringify({ ...body, [field]: placeholder }).replace(JSON.stringify(placeholder), value.raw);
};

let h: Harness;
const dynamoWrites: string[] = [];
const handlers: Record<string, Handler> = {};
const tokens: Record<string, string> = {};

beforeAll(async () => {
  h = await startHarness();
  for (const name of ['embed', 'quicksight-admin', 'user-admin', 'mfa', 'contact'])
    handlers[name] = await loadHandler(name);
  tokens.admin = await h.token(ADMIN);
  tokens.user = await h.token(USER);
  await observeDynamoCommands((command) => {
    if (!/^(Get|BatchGet|Query|Scan)/.test(command)) dynamoWrites.push(command);
  });
});
afterAll(() => h.close());
beforeEach(() => {
  for (const mock of [h.cognito, h.quicksight, h.ses]) mock.resetHistory();
  dynamoWrites.length = 0;
});

/** Calls that read only: the caller checks (live session, live Admins membership). */
const READS = /^(Get|List|Describe|AdminGet|AdminList)/;
const writesSent = () => [
  ...[h.cognito, h.quicksight, h.ses]
    .flatMap((mock) => mock.calls().map((call) => call.args[0].constructor.name.replace(/Command$/, '')))
    .filter((name) => !READS.test(name)),
  ...dynamoWrites,
];

const expectRefusedWithoutChange = (res: CallResult) => {
  expect(res.status).toBeGreaterThanOrEqual(400);
  expect(res.status).toBeLessThan(500);
  expect(typeof res.body.error).toBe('string');
  expect(JSON.stringify(res.body)).not.toMatch(/\bat .+:\d+:\d+|stack/i);
  expect(writesSent()).toEqual([]);
};

const FUNCTIONS: [name: string, caller: 'admin' | 'user', bodies: Body[]][] = [
  ['quicksight-admin', 'admin', bodiesOf(quicksightAdminRequestSchema)],
  ['user-admin', 'admin', bodiesOf(userAdminRequestSchema)],
  ['mfa', 'user', bodiesOf(mfaRequestSchema)],
  ['contact', 'user', [contactBody]],
];

const SCHEMAS: Record<string, z.ZodType> = {
  'quicksight-admin': quicksightAdminRequestSchema,
  'user-admin': userAdminRequestSchema,
  mfa: mfaRequestSchema,
  contact: contactRequestSchema,
};

const CASES = FUNCTIONS.flatMap(([name, caller, bodies]) =>
  bodies.flatMap((body) =>
    Object.keys(body).flatMap((field) =>
      HOSTILE.map(
        ([label, make]) =>
          [
            `${name} ${String(body.action ?? 'message')}: ${field} as ${label}`,
            { name, caller, body, field, make },
          ] as const,
      ),
    ),
  ),
);

describe('hostile input', () => {
  it('starts from bodies the contracts accept, so each refusal is the hostile value', () => {
    for (const [name, , bodies] of FUNCTIONS)
      for (const body of bodies) expect(SCHEMAS[name]!.safeParse(body).error).toBeUndefined();
  });

  it.each(CASES)('%s gets a 4xx and changes nothing', async (_title, { name, caller, body, field, make }) => {
    const rawBody = withField(body, field, make(body[field]));
    const res = await invoke(handlers[name]!, { token: tokens[caller], rawBody });
    expectRefusedWithoutChange(res);
  });

  it.each(
    FUNCTIONS.flatMap(([name, caller, bodies]) =>
      bodies.map((body) => [name, String(body.action ?? 'message'), caller, body] as const),
    ),
  )('%s %s with a __proto__ key at the top gets a 400 and changes nothing', async (name, _action, caller, body) => {
    const rawBody = `{"__proto__":{"isAdmin":true},${JSON.stringify(body).slice(1)}`;
    const res = await invoke(handlers[name]!, { token: tokens[caller], rawBody });
    expect(res.body).toMatchObject({
      error: 'Request body must not contain the key "__proto__"',
      fields: ['__proto__'],
    });
    expectRefusedWithoutChange(res);
  });

  it.each([
    ['{"action":{"toString":"x"}}', 'action must be a string'],
    ['{"action":["GET_USERS"]}', 'action must be a string'],
    ['{"action":"NO_SUCH_ACTION"}', 'Unknown action: NO_SUCH_ACTION'],
    ['{"action":"GET USERS; DROP"}', 'Unknown action'],
  ])('answers %s with a 400 naming the action (user-admin, quicksight-admin, mfa)', async (rawBody, error) => {
    for (const [name, caller] of [
      ['user-admin', 'admin'],
      ['quicksight-admin', 'admin'],
      ['mfa', 'user'],
    ] as const) {
      const res = await invoke(handlers[name]!, { token: tokens[caller], rawBody });
      expect(res).toMatchObject({ status: 400, body: { error, fields: ['action'] } });
      expectRefusedWithoutChange(res);
    }
  });

  it.each([
    [
      '{"action":"GET_USERS","nextToken":"a\\u0000b"}',
      'nextToken must not contain control characters, line separators or bidirectional formatting characters',
      'nextToken',
    ],
    [
      '{"action":"GET_USERS","x":{"a\\u202Eb":1}}',
      'x must not contain control characters, line separators or bidirectional formatting characters',
      'x',
    ],
    [
      '"\\u2028"',
      'Request body must not contain control characters, line separators or bidirectional formatting characters',
      'Request body',
    ],
    [
      `{"action":"GET_USERS","x":${'['.repeat(11)}${']'.repeat(11)}}`,
      'Request body is nested more than 10 levels deep',
      undefined,
    ],
    ['{"action":"GET_USERS","x":"[[[[[[[[[[[[[[[["}', 'Unknown action: GET_USERS', 'action'],
  ])('says what is wrong with %s', async (rawBody, error, field) => {
    const res = await invoke(handlers['quicksight-admin']!, { token: tokens.admin, rawBody });
    expect(res).toMatchObject({ status: 400, body: { error, ...(field === undefined ? {} : { fields: [field] }) } });
  });

  it.each([
    ['a NUL character', 'target\u0000@example.com'],
    ['an RTL override', 'target\u202E@example.com'],
  ])('refuses REGISTER_USER with %s in the email (400, nothing registered)', async (_label, userEmail) => {
    const res = await invoke(handlers['quicksight-admin']!, {
      token: tokens.admin,
      body: { action: 'REGISTER_USER', userEmail },
    });
    expect(res.status).toBe(400);
    expectRefusedWithoutChange(res);
  });

  it.each([
    ['a NUL character', 'sales\u00001'],
    ['an RTL override', 'sales\u202E1'],
    ['a line separator (U+2028)', 'sales\u20281'],
    ['a 70 KB string', 'x'.repeat(70_000)],
    ['a path', '../../admin'],
  ])('refuses an embed request whose dashboard id holds %s', async (_label, dashboardId) => {
    const res = await invoke(handlers.embed!, {
      token: tokens.user,
      method: 'GET',
      headers: { [EMBED_DASHBOARD_HEADER]: dashboardId },
    });
    expect(res).toMatchObject({ status: 400, body: { fields: [EMBED_DASHBOARD_HEADER] } });
    expectRefusedWithoutChange(res);
  });
});

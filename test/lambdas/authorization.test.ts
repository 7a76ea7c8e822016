import { AdminListGroupsForUserCommand, GetUserCommand } from '@aws-sdk/client-cognito-identity-provider';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { NO_TOKEN_MESSAGE } from '#contracts/errors.ts';
import {
  account,
  ADMIN,
  type Handler,
  type Harness,
  invoke,
  lambdaContext,
  loadHandler,
  POOL_ID_FOR_TESTS,
  startHarness,
  USER,
} from './support/harness.ts';

let h: Harness;
const handlers: Record<string, Handler> = {};
let graphql: (event: unknown, context: unknown) => Promise<unknown>;

/** The same region, another user pool: a token it issued carries this `iss`. */
const OTHER_ISSUER = 'https://cognito-idp.us-east-2.amazonaws.com/us-east-2_OtherPool';
const CATALOGUE_INPUT = { dashboardId: 'sales', dashboardName: 'Sales', dashboardLink: 'https://bi.example.com/sales' };

const FUNCTIONS = ['embed', 'quicksight-admin', 'user-admin', 'mfa', 'contact'] as const;
const SAMPLE_BODY: Record<(typeof FUNCTIONS)[number], unknown> = {
  embed: undefined,
  'quicksight-admin': { action: 'LIST_DASHBOARD_METADATA' },
  'user-admin': { action: 'GET_USERS' },
  mfa: { action: 'GET_MFA_STATUS' },
  contact: { email: USER.email, subject: 'Hello', message: 'Help' },
};
const send = (name: (typeof FUNCTIONS)[number], options: { token?: string; headers?: Record<string, string> }) =>
  invoke(handlers[name]!, {
    ...options,
    method: name === 'embed' ? 'GET' : 'POST',
    body: SAMPLE_BODY[name],
    headers: { 'x-dashboard-id': 'sales', ...options.headers },
  });

beforeAll(async () => {
  h = await startHarness();
  for (const name of FUNCTIONS) handlers[name] = await loadHandler(name);
  graphql = (await loadHandler('graphql')) as unknown as typeof graphql;
});
afterAll(() => h.close());
beforeEach(() => h.reset());

const expectNoServiceCalls = () => {
  expect(h.quicksight.calls()).toHaveLength(0);
  expect(h.ses.calls()).toHaveLength(0);
  expect(h.cognito.calls().filter((c) => !(c.args[0] instanceof GetUserCommand))).toHaveLength(0);
};

describe.each(FUNCTIONS)('%s function', (name) => {
  it(`answers 401 '${NO_TOKEN_MESSAGE}' without a token`, async () => {
    const res = await send(name, {});
    expect(res).toMatchObject({ status: 401, body: { error: NO_TOKEN_MESSAGE } });
    expect(h.cognito.calls()).toHaveLength(0);
    expectNoServiceCalls();
  });

  it.each([
    ['a forged signature', { forged: true }, 'Invalid authentication token'],
    ['an expired token', { expiresIn: -60 }, 'Authentication token has expired. Please sign in again.'],
    [
      'a token of another app client',
      { clientId: 'someotherclient' },
      'Authentication token was issued to another application',
    ],
    ['a token of another issuer, signed with the pool key', { issuer: OTHER_ISSUER }, 'Invalid authentication token'],
  ])('refuses %s with 401 before asking Cognito', async (_label, options, message) => {
    const res = await send(name, { token: await h.token(USER, options) });
    expect(res).toMatchObject({ status: 401, body: { error: message } });
    expect(h.cognito.calls()).toHaveLength(0);
    expectNoServiceCalls();
  });

  it('refuses an ID token in place of the access token', async () => {
    h.accounts.set(USER.username, USER);
    const res = await send(name, { token: await h.signer.idToken(USER) });
    expect(res).toMatchObject({ status: 401, body: { error: 'An access token is required' } });
    expect(h.cognito.calls()).toHaveLength(0);
  });

  it.each([
    ['a malformed token', 'Bearer not.a.jwt'],
    ['another scheme', 'Basic dXNlcjpwYXNz'],
  ])('refuses %s with 401', async (_label, authorization) => {
    const res = await send(name, { headers: { authorization } });
    expect(res.status).toBe(401);
    expectNoServiceCalls();
  });

  it('refuses a valid token whose session ended (disabled, deleted or signed out)', async () => {
    const token = await h.token(USER);
    h.accounts.delete(USER.username);
    const res = await send(name, { token });
    expect(res).toMatchObject({
      status: 401,
      body: { error: 'Your session is no longer valid. Please sign in again.' },
    });
    expectNoServiceCalls();
  });
});

/** A live account in neither Users nor Admins: the sign-in pages sign it out. */
const NO_GROUP = account('nogroup@example.com', []);
const USER_PRIVILEGES_DENIED = "Access denied. You don't have user privileges.";

describe.each(['embed', 'mfa', 'contact'] as const)('%s refuses an account in no group', (name) => {
  it(`with 403 '${USER_PRIVILEGES_DENIED}' and no effect`, async () => {
    const body = name === 'contact' ? { email: NO_GROUP.email, subject: 'Hello', message: 'Help' } : SAMPLE_BODY[name];
    const res = await invoke(handlers[name]!, {
      token: await h.token(NO_GROUP),
      method: name === 'embed' ? 'GET' : 'POST',
      body,
      headers: { 'x-dashboard-id': 'sales' },
    });
    expect(res).toMatchObject({ status: 403, body: { error: USER_PRIVILEGES_DENIED } });
    expectNoServiceCalls();
  });
});

const QUICKSIGHT_ADMIN_BODIES = [
  { action: 'LIST_COGNITO_USERS_WITH_QUICKSIGHT_STATUS' },
  { action: 'DELETE_USER', userEmail: 'x@example.com' },
  { action: 'REGISTER_USER', userEmail: 'x@example.com' },
  { action: 'GET_USER_DASHBOARDS', userEmail: 'x@example.com' },
  {
    action: 'INVITE_TO_DASHBOARD',
    userEmail: USER.email,
    dashboardId: 'sales',
    dashboardName: 'Sales',
    dashboardLink: 'https://bi.example.com/s',
  },
  { action: 'REMOVE_FROM_DASHBOARD', userEmail: USER.email, dashboardId: 'sales' },
  { action: 'SET_DASHBOARD_AS_DEFAULT', userEmail: USER.email, dashboardId: 'sales' },
  { action: 'LIST_DASHBOARD_METADATA' },
  {
    action: 'CREATE_DASHBOARD_METADATA',
    dashboardId: 'sales',
    dashboardName: 'Sales',
    dashboardLink: 'https://bi.example.com/s',
  },
  {
    action: 'UPDATE_DASHBOARD_METADATA',
    metadataId: 'm1',
    dashboardId: 'sales',
    dashboardName: 'Sales',
    dashboardLink: 'https://bi.example.com/s',
  },
  { action: 'DELETE_DASHBOARD_METADATA', metadataId: 'm1' },
  { action: 'IMPORT_USER', userEmail: 'x@example.com', dashboards: ['sales'] },
];
const USER_ADMIN_BODIES = [
  { action: 'GET_USERS' },
  { action: 'CREATE_USER', userEmail: 'x@example.com', password: 'Str0ng!Pass' },
  { action: 'UPDATE_USER', userEmail: 'x@example.com', newPassword: 'Str0ng!Pass' },
  { action: 'ENABLE_USER', userEmail: 'x@example.com' },
  { action: 'DISABLE_USER', userEmail: 'x@example.com' },
  { action: 'DELETE_USER', userEmail: 'x@example.com' },
  { action: 'RESET_USER_MFA', userEmail: 'x@example.com' },
  { action: 'PROMOTE_TO_ADMIN', userEmail: 'x@example.com' },
  { action: 'GET_AUDIT_LOG' },
  { action: 'CREATE_USER', userEmail: 'x@example.com', sendInvitation: true },
  { action: 'RESEND_INVITATION', userEmail: 'x@example.com' },
  { action: 'EXPORT_AUDIT_LOG', format: 'csv' },
];

describe.each([
  ['quicksight-admin', QUICKSIGHT_ADMIN_BODIES],
  ['user-admin', USER_ADMIN_BODIES],
] as const)('%s refuses a Users caller', (name, bodies) => {
  it.each(bodies.map((body) => [body.action, body]))('on %s with 403 and no effect', async (_action, body) => {
    const res = await invoke(handlers[name]!, { token: await h.token(USER), body });
    expect(res).toMatchObject({ status: 403, body: { error: "Access denied. You don't have admin privileges." } });
    expectNoServiceCalls();
    expect([...(await h.tables.views()), ...(await h.tables.dashboards()), ...(await h.tables.audit())]).toEqual([]);
  });
});

/** An admin removed from Admins in Cognito whose token, issued before, still claims the group. */
const demote = (groups: string[]) => h.accounts.set(ADMIN.username, { ...ADMIN, groups });
const ADMIN_PRIVILEGES_DENIED = "Access denied. You don't have admin privileges.";

describe.each([
  ['quicksight-admin', QUICKSIGHT_ADMIN_BODIES],
  ['user-admin', USER_ADMIN_BODIES],
] as const)('%s checks Admins live', (name, bodies) => {
  it.each(bodies.map((body) => [body.action, body]))(
    'refuses a demoted admin on %s with 403 and no effect',
    async (_action, body) => {
      const token = await h.token(ADMIN);
      demote(['Users']);
      const res = await invoke(handlers[name]!, { token, body });
      expect(res).toMatchObject({ status: 403, body: { error: ADMIN_PRIVILEGES_DENIED } });
      expect(h.quicksight.calls()).toHaveLength(0);
      expect(
        h.cognito
          .calls()
          .map((c) => c.args[0].constructor.name)
          .sort(),
      ).toEqual(['AdminListGroupsForUserCommand', 'GetUserCommand']);
      expect([...(await h.tables.views()), ...(await h.tables.dashboards()), ...(await h.tables.audit())]).toEqual([]);
    },
  );

  it('asks Cognito once per request for an admin, by the username of the verified token', async () => {
    const body = { action: name === 'user-admin' ? 'GET_AUDIT_LOG' : 'LIST_DASHBOARD_METADATA' };
    const res = await invoke(handlers[name]!, { token: await h.token(ADMIN), body });
    expect(res.status).toBe(200);
    expect(h.cognito.commandCalls(AdminListGroupsForUserCommand).map((c) => c.args[0].input)).toEqual([
      { UserPoolId: POOL_ID_FOR_TESTS, Username: ADMIN.username },
    ]);
  });
});

describe('GraphQL resolver', () => {
  const event = (
    authorization: string | undefined,
    fieldName = 'listTableauViews',
    parentTypeName = 'Query',
    args: unknown = {},
  ) => ({
    arguments: args,
    identity: null,
    source: null,
    request: { headers: authorization === undefined ? {} : { authorization } },
    info: { fieldName, parentTypeName, variables: {}, selectionSetList: [] },
    prev: null,
    stash: {},
  });

  it.each([
    ['no token', undefined, NO_TOKEN_MESSAGE],
    ['a forged token', 'forged', 'Invalid authentication token'],
  ])('throws Unauthorized for %s', async (_label, authorization, message) => {
    const header = authorization === 'forged' ? await h.token(USER, { forged: true }) : authorization;
    await expect(graphql(event(header), lambdaContext())).rejects.toMatchObject({ name: 'Unauthorized', message });
  });

  it.each([
    ['a user', USER],
    ['an admin', ADMIN],
  ])(
    'throws Unauthorized for the token of %s from another issuer, signed with the pool key, before asking Cognito',
    async (_label, who) => {
      const token = await h.token(who, { issuer: OTHER_ISSUER });
      await expect(graphql(event(token), lambdaContext())).rejects.toMatchObject({
        name: 'Unauthorized',
        message: 'Invalid authentication token',
      });
      await expect(
        graphql(event(token, 'createDashboardMetadata', 'Mutation', { input: CATALOGUE_INPUT }), lambdaContext()),
      ).rejects.toMatchObject({
        name: 'Unauthorized',
        message: 'Invalid authentication token',
      });
      expect(h.cognito.calls()).toHaveLength(0);
      expect([...(await h.tables.dashboards()), ...(await h.tables.audit())]).toEqual([]);
    },
  );

  it('refuses an account in no group', async () => {
    await expect(graphql(event(await h.token(NO_GROUP)), lambdaContext())).rejects.toMatchObject({
      name: 'Unauthorized',
      message: USER_PRIVILEGES_DENIED,
    });
  });

  it('accepts the bare token AppSync passes', async () => {
    const result = await graphql(event(await h.token(ADMIN)), lambdaContext());
    expect(result).toEqual({ items: [], nextToken: null });
  });

  it('refuses catalogue writes to a demoted admin whose token still claims Admins', async () => {
    const token = await h.token(ADMIN);
    demote(['Users']);
    const input = { dashboardId: 'sales', dashboardName: 'Sales', dashboardLink: 'https://bi.example.com/sales' };
    await expect(
      graphql(event(token, 'createDashboardMetadata', 'Mutation', { input }), lambdaContext()),
    ).rejects.toMatchObject({
      name: 'Unauthorized',
      message: ADMIN_PRIVILEGES_DENIED,
    });
    expect([...(await h.tables.dashboards()), ...(await h.tables.audit())]).toEqual([]);
  });

  it('asks Cognito about groups only when the token claims Admins', async () => {
    await graphql(event(await h.token(USER)), lambdaContext());
    expect(h.cognito.commandCalls(AdminListGroupsForUserCommand)).toHaveLength(0);
    await graphql(event(await h.token(ADMIN)), lambdaContext());
    expect(h.cognito.commandCalls(AdminListGroupsForUserCommand)).toHaveLength(1);
  });
});

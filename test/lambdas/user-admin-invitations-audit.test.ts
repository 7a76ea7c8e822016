import {
  AdminAddUserToGroupCommand,
  AdminCreateUserCommand,
  AdminDeleteUserCommand,
  AdminGetUserCommand,
  AdminSetUserPasswordCommand,
  InternalErrorException,
  UnsupportedUserStateException,
  UsernameExistsException,
} from '@aws-sdk/client-cognito-identity-provider';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { AUDIT_FILTER_MESSAGES, INVITATION_MESSAGES, PROTECTED_OPERATIONS } from '#contracts/user-admin.ts';
import {
  ADMIN,
  type Handler,
  type Harness,
  invoke,
  loadHandler,
  OTHER_ADMIN,
  startHarness,
  USER,
} from './support/harness.ts';

let h: Harness;
let handler: Handler;
let adminToken: string;

beforeAll(async () => {
  h = await startHarness();
  handler = await loadHandler('user-admin');
});
afterAll(() => h.close());
beforeEach(async () => {
  await h.reset();
  adminToken = await h.token(ADMIN);
  h.groupMembers('Admins', [ADMIN, OTHER_ADMIN]);
});

const call = (body: unknown) => invoke(handler, { token: adminToken, body });

describe('CREATE_USER with an invitation', () => {
  it('lets Cognito generate the temporary password and send the invitation, then adds the Users group', async () => {
    h.cognito
      .on(AdminCreateUserCommand)
      .resolves({ User: { Username: 'new-sub', UserStatus: 'FORCE_CHANGE_PASSWORD' } });
    const res = await call({ action: 'CREATE_USER', userEmail: 'Invited@Example.com', sendInvitation: true });
    expect(res).toMatchObject({
      status: 200,
      body: { message: INVITATION_MESSAGES.created, user: { email: 'invited@example.com', username: 'new-sub' } },
    });
    const input = h.cognito.commandCalls(AdminCreateUserCommand)[0]?.args[0].input;
    expect(input).toMatchObject({ Username: 'invited@example.com', DesiredDeliveryMediums: ['EMAIL'] });
    expect(input).not.toHaveProperty('TemporaryPassword');
    expect(input).not.toHaveProperty('MessageAction');
    expect(h.cognito.commandCalls(AdminSetUserPasswordCommand)).toHaveLength(0);
    expect(h.cognito.commandCalls(AdminAddUserToGroupCommand)[0]?.args[0].input).toMatchObject({
      GroupName: 'Users',
      Username: 'invited@example.com',
    });
    expect(await h.tables.audit()).toEqual([
      expect.objectContaining({
        action: 'CREATE_USER',
        target: 'invited@example.com',
        outcome: 'success',
        detail: 'invitation email sent',
      }),
    ]);
  });

  it('removes the account again when the group cannot be set', async () => {
    h.cognito.on(AdminCreateUserCommand).resolves({ User: { Username: 'new-sub' } });
    h.cognito.on(AdminAddUserToGroupCommand).rejects(new InternalErrorException({ message: 'boom', $metadata: {} }));
    const res = await call({ action: 'CREATE_USER', userEmail: 'invited@example.com', sendInvitation: true });
    expect(res.status).toBe(502);
    expect(h.cognito.commandCalls(AdminDeleteUserCommand)[0]?.args[0].input).toMatchObject({
      Username: 'invited@example.com',
    });
  });

  it("answers 409 'User already exists' and changes nothing for an existing account", async () => {
    h.cognito.on(AdminCreateUserCommand).rejects(new UsernameExistsException({ message: 'exists', $metadata: {} }));
    const res = await call({ action: 'CREATE_USER', userEmail: USER.email, sendInvitation: true });
    expect(res).toMatchObject({ status: 409, body: { error: 'User already exists' } });
    expect(h.cognito.commandCalls(AdminAddUserToGroupCommand)).toHaveLength(0);
    expect(h.cognito.commandCalls(AdminDeleteUserCommand)).toHaveLength(0);
  });

  it('refuses both an invitation and a password, and neither, with 400 and no call', async () => {
    const both = await call({
      action: 'CREATE_USER',
      userEmail: 'a@example.com',
      sendInvitation: true,
      password: 'Str0ng!Pass',
    });
    expect(both).toMatchObject({ status: 400, body: { error: INVITATION_MESSAGES.chooseOne } });
    const neither = await call({ action: 'CREATE_USER', userEmail: 'a@example.com', sendInvitation: false });
    expect(neither).toMatchObject({ status: 400, body: { error: 'Password is required' } });
    expect(h.cognito.commandCalls(AdminCreateUserCommand)).toHaveLength(0);
  });
});

describe('RESEND_INVITATION', () => {
  it('sends a new temporary password to an account that has not signed in yet', async () => {
    h.cognito.on(AdminGetUserCommand).resolves({ Username: 'u', UserStatus: 'FORCE_CHANGE_PASSWORD' });
    h.cognito.on(AdminCreateUserCommand).resolves({ User: { Username: 'u' } });
    const res = await call({ action: 'RESEND_INVITATION', userEmail: 'Pending@Example.com' });
    expect(res).toMatchObject({ status: 200, body: { message: INVITATION_MESSAGES.resent } });
    expect(h.cognito.commandCalls(AdminCreateUserCommand)[0]?.args[0].input).toMatchObject({
      Username: 'pending@example.com',
      MessageAction: 'RESEND',
    });
    expect(await h.tables.audit()).toEqual([
      expect.objectContaining({ action: 'RESEND_INVITATION', target: 'pending@example.com', outcome: 'success' }),
    ]);
  });

  it('refuses with 409 an account that has chosen its password, before asking Cognito to resend', async () => {
    h.cognito.on(AdminGetUserCommand).resolves({ Username: 'u', UserStatus: 'CONFIRMED' });
    const res = await call({ action: 'RESEND_INVITATION', userEmail: USER.email });
    expect(res).toMatchObject({
      status: 409,
      body: { error: INVITATION_MESSAGES.notPending, suggestion: INVITATION_MESSAGES.notPendingSuggestion },
    });
    expect(h.cognito.commandCalls(AdminCreateUserCommand)).toHaveLength(0);
    expect(await h.tables.audit()).toEqual([
      expect.objectContaining({ action: 'RESEND_INVITATION', outcome: 'failure' }),
    ]);
  });

  it("turns Cognito's UnsupportedUserStateException (a sign-in in between) into the same 409", async () => {
    h.cognito.on(AdminGetUserCommand).resolves({ Username: 'u', UserStatus: 'FORCE_CHANGE_PASSWORD' });
    h.cognito
      .on(AdminCreateUserCommand)
      .rejects(new UnsupportedUserStateException({ message: 'Resend not possible.', $metadata: {} }));
    const res = await call({ action: 'RESEND_INVITATION', userEmail: USER.email });
    expect(res).toMatchObject({ status: 409, body: { error: INVITATION_MESSAGES.notPending } });
  });

  it('refuses an admin account and one’s own with 403', async () => {
    for (const target of [OTHER_ADMIN.email, ADMIN.email]) {
      const res = await call({ action: 'RESEND_INVITATION', userEmail: target });
      expect(res.status).toBe(403);
    }
    expect((await call({ action: 'RESEND_INVITATION', userEmail: OTHER_ADMIN.email })).body.error).toBe(
      PROTECTED_OPERATIONS.resendInvitation.admin,
    );
    expect(h.cognito.commandCalls(AdminCreateUserCommand)).toHaveLength(0);
  });
});

interface Seed {
  at: string;
  actor: string;
  action: string;
  target: string | null;
}

const SEEDS: Seed[] = [
  { at: '2026-03-01T10:00:00.000Z', actor: 'admin@example.com', action: 'CREATE_USER', target: 'ann@example.com' },
  {
    at: '2026-03-02T10:00:00.000Z',
    actor: 'second.admin@example.com',
    action: 'DELETE_USER',
    target: 'bob@example.com',
  },
  {
    at: '2026-03-03T10:00:00.000Z',
    actor: 'admin@example.com',
    action: 'INVITE_TO_DASHBOARD',
    target: 'ann@example.com',
  },
  { at: '2026-03-04T10:00:00.000Z', actor: 'admin@example.com', action: 'CREATE_USER', target: 'carl@example.com' },
  {
    at: '2026-03-05T10:00:00.000Z',
    actor: 'second.admin@example.com',
    action: 'CREATE_USER',
    target: 'dora@example.com',
  },
];

const seed = async () => {
  for (const [index, entry] of SEEDS.entries()) {
    await h.tables.put('AUDIT_TABLE', {
      pk: 'AUDIT',
      sk: `${entry.at}#000000#id-${index}`,
      id: `id-${index}`,
      outcome: index === 1 ? 'failure' : 'success',
      detail: index === 0 ? '=HYPERLINK("http://evil.example")' : null,
      ...entry,
    });
  }
};

const targets = (entries: unknown) => (entries as { target: string }[]).map((entry) => entry.target);

describe('GET_AUDIT_LOG filters', () => {
  beforeEach(seed);

  it.each([
    [{ actor: 'SECOND.admin' }, ['dora@example.com', 'bob@example.com']],
    [{ action: 'CREATE_USER' }, ['dora@example.com', 'carl@example.com', 'ann@example.com']],
    [{ target: 'ann@' }, ['ann@example.com', 'ann@example.com']],
    [{ outcome: 'failure' }, ['bob@example.com']],
    [
      { from: '2026-03-02T10:00:00.000Z', to: '2026-03-04T10:00:00.000Z' },
      ['carl@example.com', 'ann@example.com', 'bob@example.com'],
    ],
    [{ from: '2026-03-04T00:00:00+02:00' }, ['dora@example.com', 'carl@example.com']],
    [{ action: 'CREATE_USER', actor: 'admin@example.com', to: '2026-03-03T23:59:59.999Z' }, ['ann@example.com']],
  ])('filters by %j on the server', async (filter, expected) => {
    const res = await call({ action: 'GET_AUDIT_LOG', filter });
    expect(res.status).toBe(200);
    expect(targets(res.body.entries)).toEqual(expected);
  });

  it('fills a filtered page across reads and hands on a token for the rest', async () => {
    const first = await call({ action: 'GET_AUDIT_LOG', limit: 2, filter: { action: 'CREATE_USER' } });
    expect(targets(first.body.entries)).toEqual(['dora@example.com', 'carl@example.com']);
    expect(first.body.nextToken).toEqual(expect.any(String));
    const second = await call({
      action: 'GET_AUDIT_LOG',
      limit: 2,
      filter: { action: 'CREATE_USER' },
      nextToken: first.body.nextToken,
    });
    expect(targets(second.body.entries)).toEqual(['ann@example.com']);
  });

  it.each([
    [{ from: 'yesterday' }, AUDIT_FILTER_MESSAGES.badTime],
    [{ from: '2026-03-05T00:00:00Z', to: '2026-03-01T00:00:00Z' }, AUDIT_FILTER_MESSAGES.reversedRange],
    [{ action: 'create user' }, 'Action must be an action code such as CREATE_USER'],
    [{ actor: 'x'.repeat(300) }, undefined],
    [{ unknown: 'field' }, undefined],
  ])('refuses the filter %j with 400', async (filter, message) => {
    const res = await call({ action: 'GET_AUDIT_LOG', filter });
    expect(res.status).toBe(400);
    if (message !== undefined) expect(res.body.error).toBe(message);
  });
});

describe('EXPORT_AUDIT_LOG', () => {
  beforeEach(seed);

  it('returns every matching entry and records the export (who, which filter, how many) in the trail', async () => {
    const filter = { action: 'CREATE_USER', from: '2026-03-01T00:00:00.000Z', to: '2026-03-04T23:59:59.999Z' };
    const res = await call({ action: 'EXPORT_AUDIT_LOG', format: 'csv', filter });
    expect(res.status).toBe(200);
    expect(targets(res.body.entries)).toEqual(['carl@example.com', 'ann@example.com']);
    const [latest] = await h.tables.audit();
    expect(latest).toMatchObject({
      actor: ADMIN.email,
      action: 'EXPORT_AUDIT_LOG',
      target: null,
      outcome: 'success',
      detail: 'CSV export of action CREATE_USER; from 2026-03-01T00:00:00.000Z; to 2026-03-04T23:59:59.999Z: 2 entries',
    });
  });

  it('exports the whole trail without a filter, the stored text unchanged (the browser neutralises formulas)', async () => {
    const res = await call({ action: 'EXPORT_AUDIT_LOG', format: 'json' });
    expect(res.body.entries).toHaveLength(SEEDS.length);
    expect(res.body.entries).toContainEqual(expect.objectContaining({ detail: '=HYPERLINK("http://evil.example")' }));
    expect((await h.tables.audit())[0]).toMatchObject({
      detail: `JSON export of whole trail: ${SEEDS.length} entries`,
    });
  });

  it('refuses a bad format or filter with 400 and records nothing', async () => {
    expect((await call({ action: 'EXPORT_AUDIT_LOG', format: 'xlsx' })).status).toBe(400);
    expect((await call({ action: 'EXPORT_AUDIT_LOG', format: 'csv', filter: { from: 'soon' } })).status).toBe(400);
    expect(await h.tables.audit()).toHaveLength(SEEDS.length);
  });
});

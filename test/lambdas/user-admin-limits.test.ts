import {
  AdminAddUserToGroupCommand,
  AdminCreateUserCommand,
  AdminGetUserCommand,
  InternalErrorException,
  ListUsersInGroupCommand,
} from '@aws-sdk/client-cognito-identity-provider';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  ADMIN,
  directoryUser,
  type Handler,
  type Harness,
  invoke,
  loadHandler,
  OTHER_ADMIN,
  startHarness,
  USER,
} from './support/harness.ts';

/**
 * The resend-invitation cap (and its refusal of a disabled account) and one audit entry for
 * concurrent promotions of one user. Limits and texts are written out here, not taken from
 * the code's constants.
 */
let h: Harness;
let handler: Handler;

beforeAll(async () => {
  h = await startHarness();
  handler = await loadHandler('user-admin');
});
afterAll(() => h.close());
beforeEach(async () => {
  await h.reset();
  h.groupMembers('Admins', [ADMIN, OTHER_ADMIN]);
});
afterEach(() => {
  vi.useRealTimers();
});

/**
 * A call with a token minted now (the fake clock included), from a sign-in a little before
 * the token's issue, as Cognito would write it.
 */
const call = async (body: unknown) => invoke(handler, { token: await h.token(ADMIN, { signedInAgo: 30 }), body });
const resend = (userEmail: string) => call({ action: 'RESEND_INVITATION', userEmail });

const PENDING = 'pending@example.com';
const resendCalls = () =>
  h.cognito.commandCalls(AdminCreateUserCommand).filter((c) => c.args[0].input.MessageAction === 'RESEND');

describe('RESEND_INVITATION limits', () => {
  beforeEach(() => {
    h.cognito
      .on(AdminGetUserCommand)
      .resolves({ Username: 'pending-sub', UserStatus: 'FORCE_CHANGE_PASSWORD', Enabled: true });
    h.cognito.on(AdminCreateUserCommand).resolves({ User: { Username: 'pending-sub' } });
  });

  it('sends at most 3 invitations to one account in any 3600 s (a sliding window), then answers 429 saying when to try again', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    const at = (time: string) => vi.setSystemTime(new Date(`2026-03-02T${time}Z`));
    const refusal = (minutes: string) =>
      `The invitation to this account was already resent 3 times in the last hour. Try again in about ${minutes}.`;
    at('10:00:00');
    for (let i = 0; i < 2; i += 1) expect((await resend(PENDING)).status).toBe(200);
    at('10:30:00');
    expect((await resend(PENDING)).status).toBe(200);

    at('10:40:00');
    expect(await resend(PENDING)).toMatchObject({
      status: 429,
      body: { error: refusal('20 minutes'), userEmail: PENDING },
    });
    expect(resendCalls()).toHaveLength(3);

    // Another account has an allowance of its own.
    expect((await resend('second.pending@example.com')).status).toBe(200);

    at('10:59:59');
    expect((await resend(PENDING)).body.error).toBe(refusal('1 minute'));
    // 3600 s after the first two, their places free; the one of 10:30 is still taken.
    at('11:00:00');
    expect((await resend(PENDING)).status).toBe(200);
    expect((await resend(PENDING)).status).toBe(200);
    expect(await resend(PENDING)).toMatchObject({ status: 429, body: { error: refusal('30 minutes') } });
    at('11:30:00');
    expect((await resend(PENDING)).status).toBe(200);
    expect(resendCalls()).toHaveLength(7);

    const entries = await h.tables.audit();
    expect(entries.filter((e) => e.action === 'RESEND_INVITATION' && e.outcome === 'failure')).toHaveLength(3);
  });

  it('holds when the resends arrive at once', async () => {
    const results = await Promise.all(Array.from({ length: 8 }, () => resend(PENDING)));
    expect(results.map((r) => r.status).sort()).toEqual([200, 200, 200, 429, 429, 429, 429, 429]);
    expect(resendCalls()).toHaveLength(3);
  });

  it('gives the allowance back when Cognito fails to send', async () => {
    h.cognito.on(AdminCreateUserCommand).rejects(new InternalErrorException({ message: 'boom', $metadata: {} }));
    for (let i = 0; i < 4; i += 1) expect((await resend(PENDING)).status).toBe(502);
    h.cognito.on(AdminCreateUserCommand).resolves({ User: { Username: 'pending-sub' } });
    const statuses = [];
    for (let i = 0; i < 4; i += 1) statuses.push((await resend(PENDING)).status);
    expect(statuses).toEqual([200, 200, 200, 429]);
  });

  it('refuses a disabled account with 409 and sends nothing', async () => {
    h.cognito
      .on(AdminGetUserCommand)
      .resolves({ Username: 'pending-sub', UserStatus: 'FORCE_CHANGE_PASSWORD', Enabled: false });
    const res = await resend(PENDING);
    expect(res).toMatchObject({
      status: 409,
      body: {
        error: 'Cannot resend an invitation to a disabled account',
        userEmail: PENDING,
        suggestion: 'Enable the account first.',
      },
    });
    expect(h.cognito.commandCalls(AdminCreateUserCommand)).toHaveLength(0);
    expect(await h.tables.audit()).toEqual([
      expect.objectContaining({ action: 'RESEND_INVITATION', target: PENDING, outcome: 'failure' }),
    ]);
    // A refusal uses none of the account's allowance.
    h.cognito
      .on(AdminGetUserCommand)
      .resolves({ Username: 'pending-sub', UserStatus: 'FORCE_CHANGE_PASSWORD', Enabled: true });
    const statuses = [];
    for (let i = 0; i < 4; i += 1) statuses.push((await resend(PENDING)).status);
    expect(statuses).toEqual([200, 200, 200, 429]);
  });
});

describe('concurrent PROMOTE_TO_ADMIN', () => {
  /** Cognito's Admins group as the calls change it; adding a member takes a little while, as in AWS. */
  let admins: Set<string>;
  let enabled: boolean;

  beforeEach(() => {
    admins = new Set([ADMIN.email, OTHER_ADMIN.email]);
    enabled = true;
    h.cognito.on(ListUsersInGroupCommand, { GroupName: 'Admins' }).callsFake(() => ({
      Users: [...admins].map((email) => directoryUser({ username: email, email, groups: ['Admins'] })),
    }));
    h.cognito
      .on(AdminGetUserCommand)
      .callsFake(() => ({ Username: USER.username, UserStatus: 'CONFIRMED', Enabled: enabled }));
    h.cognito.on(AdminAddUserToGroupCommand).callsFake(async (input: { Username?: string }) => {
      await new Promise((resolve) => setTimeout(resolve, 30));
      admins.add(String(input.Username));
      return {};
    });
  });

  const promote = () => call({ action: 'PROMOTE_TO_ADMIN', userEmail: USER.email });

  it('five promotions of one user at once: one success entry, the others answer that the user is already an admin', async () => {
    const results = await Promise.all(Array.from({ length: 5 }, promote));
    expect(results.map((r) => r.status).sort()).toEqual([200, 409, 409, 409, 409]);
    expect(results.filter((r) => r.status === 409).map((r) => r.body.error)).toEqual(
      Array<string>(4).fill('User is already an admin'),
    );
    expect(h.cognito.commandCalls(AdminAddUserToGroupCommand)).toHaveLength(1);

    const entries = (await h.tables.audit()).filter((e) => e.action === 'PROMOTE_TO_ADMIN');
    expect(entries.filter((e) => e.outcome === 'success')).toEqual([
      expect.objectContaining({ actor: ADMIN.email, target: USER.email }),
    ]);
    expect(entries.filter((e) => e.outcome === 'failure')).toHaveLength(4);
    // Nothing of the serialization is left behind.
    expect((await h.tables.state()).filter((item) => String(item.pk).startsWith('LEASE#'))).toEqual([]);
  });

  it('concurrent promotions of a disabled user all give the real reason, and a later one succeeds once it is enabled', async () => {
    enabled = false;
    const refused = await Promise.all(Array.from({ length: 3 }, promote));
    expect(refused.map((r) => [r.status, r.body.error])).toEqual(
      Array(3).fill([409, 'Cannot promote a disabled account']),
    );
    enabled = true;
    expect((await promote()).status).toBe(200);
    expect((await promote()).body.error).toBe('User is already an admin');
    const entries = (await h.tables.audit()).filter((e) => e.action === 'PROMOTE_TO_ADMIN' && e.outcome === 'success');
    expect(entries).toHaveLength(1);
  });
});

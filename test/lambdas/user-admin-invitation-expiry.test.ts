import { ListUsersCommand } from '@aws-sdk/client-cognito-identity-provider';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { INVITATION_VALIDITY_DAYS } from '#contracts/user-admin.ts';
import { TEMPORARY_PASSWORD_VALIDITY_DAYS } from '#lib/auth.ts';
import {
  ADMIN,
  directoryUser,
  type Handler,
  type Harness,
  invoke,
  loadHandler,
  startHarness,
  USER,
} from './support/harness.ts';

let h: Harness;
let handler: Handler;

beforeAll(async () => {
  h = await startHarness();
  handler = await loadHandler('user-admin');
});
afterAll(() => h.close());
beforeEach(async () => {
  await h.reset();
  h.groupMembers('Admins', [ADMIN]);
  h.groupMembers('Users', [USER]);
});

describe('GET_USERS: pending invitations', () => {
  it("gives an account that has not signed in yet its invitation's expiry, counted from the last invitation", async () => {
    const invited = { ...USER, username: 'invited-sub', email: 'invited@example.com' };
    const resent = { ...USER, username: 'resent-sub', email: 'resent@example.com' };
    h.cognito.on(ListUsersCommand).resolves({
      Users: [
        directoryUser(ADMIN),
        directoryUser(invited, {
          UserStatus: 'FORCE_CHANGE_PASSWORD',
          UserCreateDate: new Date('2026-03-01T10:00:00Z'),
          UserLastModifiedDate: new Date('2026-03-01T10:00:00Z'),
        }),
        // Resent two days later: a new temporary password, valid from then.
        directoryUser(resent, {
          UserStatus: 'FORCE_CHANGE_PASSWORD',
          UserCreateDate: new Date('2026-03-01T10:00:00Z'),
          UserLastModifiedDate: new Date('2026-03-03T09:30:00Z'),
        }),
      ],
    });
    const res = await invoke(handler, { token: await h.token(ADMIN), body: { action: 'GET_USERS' } });
    expect(res.status).toBe(200);
    const users = res.body.users as { email: string; status: string; invitationExpires?: string | null }[];
    expect(users.map((user) => [user.email, user.status, user.invitationExpires])).toEqual([
      [ADMIN.email, 'CONFIRMED', undefined],
      ['invited@example.com', 'FORCE_CHANGE_PASSWORD', '2026-03-08T10:00:00.000Z'],
      ['resent@example.com', 'FORCE_CHANGE_PASSWORD', '2026-03-10T09:30:00.000Z'],
    ]);
  });

  it("uses the pool's temporary password validity", () => {
    // The pool's temporary passwords last 7 days, and the shown expiry counts the same 7.
    expect(INVITATION_VALIDITY_DAYS).toBe(7);
    expect(TEMPORARY_PASSWORD_VALIDITY_DAYS).toBe(7);
  });
});

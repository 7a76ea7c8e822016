import {
  AdminGetUserCommand,
  AdminListGroupsForUserCommand,
  ListUsersCommand,
  ListUsersInGroupCommand,
  type UserStatusType,
  type UserType,
} from '@aws-sdk/client-cognito-identity-provider';
import { ENV } from '#contracts/env.ts';
import { ADMINS_GROUP, USERS_GROUP } from '#contracts/groups.ts';
import { cognito } from './aws/cognito.ts';
import { isAwsError } from './aws/config.ts';
import { mapWithLimit } from './concurrency.ts';
import {
  type DirectoryEntry,
  type EntryChange,
  deleteDirectoryEntry,
  forgetFullListing,
  putDirectoryEntry,
  readDirectoryEntries,
  readDirectoryEntry,
  readLastFullListing,
  recordFullListing,
  sameEntry,
  updateDirectoryEntry,
  writeDirectoryEntries,
} from './data/directory.ts';
import { nowIso } from './data/tables.ts';
import { requireEnv } from './env.ts';

/**
 * Reads of the user directory for the admin functions. Listings page through ListUsers and
 * ListUsersInGroup at their maximum page size and never call per user, so 10,000 accounts
 * cost ceil(10,000 / 60) calls per listing, plus the group pages.
 */
const COGNITO_PAGE_SIZE = 60;

/** Groups in precedence order: a member of both is shown in the first. */
const GROUPS = [ADMINS_GROUP, USERS_GROUP] as const;

export const emailOf = (user: UserType): string =>
  user.Attributes?.find((attribute) => attribute.Name === 'email')?.Value?.toLowerCase() ?? '';

/**
 * The one attribute the listings read (the username, status and dates come with every user
 * anyway): pages carry only the email, which a pool that signs in by email holds for every
 * account, instead of every attribute (sub, email_verified and any others) of 60 users.
 */
const LISTED_ATTRIBUTES = ['email'];

/** Every account (or those `filter` matches) with its username, status, dates and email. */
const listAllUsers = async (filter?: string): Promise<UserType[]> => {
  const users: UserType[] = [];
  let token: string | undefined;
  do {
    const page = await cognito.send(
      new ListUsersCommand({
        UserPoolId: requireEnv(ENV.userPoolId),
        ...(filter === undefined ? {} : { Filter: filter }),
        Limit: COGNITO_PAGE_SIZE,
        AttributesToGet: LISTED_ATTRIBUTES,
        PaginationToken: token,
      }),
    );
    users.push(...(page.Users ?? []));
    token = page.PaginationToken;
  } while (token);
  return users;
};

const listGroupMembers = async (group: string): Promise<UserType[]> => {
  const users: UserType[] = [];
  let token: string | undefined;
  do {
    const page = await cognito.send(
      new ListUsersInGroupCommand({
        UserPoolId: requireEnv(ENV.userPoolId),
        GroupName: group,
        Limit: COGNITO_PAGE_SIZE,
        NextToken: token,
      }),
    );
    users.push(...(page.Users ?? []));
    token = page.NextToken;
  } while (token);
  return users;
};

/** Every user with their group: one listing of users and one of each group, in parallel. */
const listUsersWithGroups = async (): Promise<{ user: UserType; group: string | null }[]> => {
  const [users, ...memberships] = await Promise.all([
    listAllUsers(),
    ...GROUPS.map((group) => listGroupMembers(group)),
  ]);
  const groupOf = new Map<string, string>();
  GROUPS.forEach((group, index) => {
    for (const member of memberships[index] ?? []) {
      if (member.Username !== undefined && !groupOf.has(member.Username)) groupOf.set(member.Username, group);
    }
  });
  return users.map((user) => ({ user, group: (user.Username && groupOf.get(user.Username)) ?? null }));
};

/** Whether the account with this email is in the Admins group (one listing of that small group). */
export const isAdminEmail = async (email: string): Promise<boolean> => {
  const admins = await listGroupMembers(ADMINS_GROUP);
  return admins.some((admin) => emailOf(admin) === email.toLowerCase());
};

/**
 * The account's groups as Cognito holds them now, not as a token issued earlier says: one
 * call (an account is in at most the pool's two groups, well under one page).
 */
export const liveGroupsOf = async (username: string): Promise<string[]> => {
  const answer = await cognito.send(
    new AdminListGroupsForUserCommand({ UserPoolId: requireEnv(ENV.userPoolId), Username: username }),
  );
  return (answer.Groups ?? []).flatMap((group) => (group.GroupName === undefined ? [] : [group.GroupName]));
};

/*
 * The admin pages read the portal's copy of the directory (lambdas/shared/data/directory.ts)
 * rather than a full listing: at 10,000 accounts a full listing is about 340 list calls,
 * which Cognito's UserList quota (30 a second) stretches to 11 seconds or more, against a
 * few 1 MB queries of one partition. The copy stays true this way:
 * - every account change the portal makes writes the copy (noteAccountChange);
 * - every read also lists, live, the Admins group and the accounts in a transitional status
 *   (invitation pending, reset required, unconfirmed): small lists, and exactly the states a
 *   user or a tool changes outside the portal (a first sign-in, a finished reset, an admin made
 *   with `npm run create-admin`). What they contradict is corrected, account by account;
 * - a full listing rebuilds the copy when it is older than FULL_LISTING_INTERVAL_HOURS, when
 *   the admin asks for it (the pages' Refresh), or when a write to it failed. It is what
 *   brings in changes made in the Cognito console (an account disabled or deleted there).
 */

/** How old the copy may grow before a read rebuilds it from a full listing. */
const FULL_LISTING_INTERVAL_HOURS = 24;
const HOUR_MS = 60 * 60 * 1000;
/** Statuses an account leaves without the portal: by a first sign-in, a finished reset, a confirmed sign-up. */
const TRANSITIONAL_STATUSES = ['FORCE_CHANGE_PASSWORD', 'RESET_REQUIRED', 'UNCONFIRMED'] as const;
const TRANSITIONAL = new Set<string>(TRANSITIONAL_STATUSES);
/** Accounts looked up one by one at most this many at a time (UserRead allows 120 a second). */
const LOOKUP_CONCURRENCY = 8;
/**
 * More accounts to look up than this (say, hundreds invited from the Cognito console at once)
 * and one full listing is cheaper: a page of ListUsers carries 60.
 */
const MAX_LOOKUPS = 60;

export interface ListedUser {
  readonly user: UserType;
  readonly group: string | null;
}

const shownGroup = (groups: readonly string[]): string | null => GROUPS.find((group) => groups.includes(group)) ?? null;

const directoryEntryOf = (user: UserType, group: string | null): DirectoryEntry => ({
  email: emailOf(user),
  username: user.Username ?? '',
  enabled: user.Enabled ?? false,
  status: user.UserStatus ?? 'UNKNOWN',
  group,
  created: user.UserCreateDate?.toISOString() ?? null,
  modified: user.UserLastModifiedDate?.toISOString() ?? null,
});

const listedOf = (entry: DirectoryEntry): ListedUser => ({
  user: {
    Username: entry.username,
    Attributes: [{ Name: 'email', Value: entry.email }],
    Enabled: entry.enabled,
    UserStatus: entry.status as UserStatusType,
    ...(entry.created === null ? {} : { UserCreateDate: new Date(entry.created) }),
    ...(entry.modified === null ? {} : { UserLastModifiedDate: new Date(entry.modified) }),
  },
  group: entry.group,
});

const byEmail = (a: DirectoryEntry, b: DirectoryEntry): number => (a.email < b.email ? -1 : a.email > b.email ? 1 : 0);

/** The accounts in one status, live (`cognito:user_status` is one of ListUsers' searchable attributes). */
const listUsersWithStatus = (status: string): Promise<UserType[]> => listAllUsers(`cognito:user_status = "${status}"`);

/** One account as Cognito holds it now, with its group; undefined when there is no such account. */
const lookUpEntry = async (email: string): Promise<DirectoryEntry | undefined> => {
  let user;
  try {
    user = await cognito.send(new AdminGetUserCommand({ UserPoolId: requireEnv(ENV.userPoolId), Username: email }));
  } catch (error) {
    if (isAwsError(error, 'UserNotFoundException')) return undefined;
    throw error;
  }
  const username = user.Username ?? email;
  return directoryEntryOf(
    {
      Username: username,
      Attributes: user.UserAttributes ?? [],
      Enabled: user.Enabled,
      UserStatus: user.UserStatus,
      UserCreateDate: user.UserCreateDate,
      UserLastModifiedDate: user.UserLastModifiedDate,
    },
    shownGroup(await liveGroupsOf(username)),
  );
};

/**
 * A full listing, written into the copy (what differs from it) and returned, by email. `known`:
 * the copy as this request already read it.
 */
const rebuildDirectory = async (known?: readonly DirectoryEntry[]): Promise<ListedUser[]> => {
  const startedAt = nowIso();
  const [live, stored] = await Promise.all([listUsersWithGroups(), known ?? readDirectoryEntries()]);
  const storedByEmail = new Map(stored.map((entry) => [entry.email, entry]));
  const entries = live.map(({ user, group }) => directoryEntryOf(user, group)).filter((entry) => entry.email !== '');
  const current = new Set(entries.map((entry) => entry.email));
  await writeDirectoryEntries(
    entries.filter((entry) => !sameEntry(storedByEmail.get(entry.email), entry)),
    stored.filter((entry) => !current.has(entry.email)).map((entry) => entry.email),
  );
  await recordFullListing(startedAt);
  return entries.sort(byEmail).map(listedOf);
};

/** The copy with what the live lists contradict corrected (and written back). */
const correctedDirectory = async (
  stored: readonly DirectoryEntry[],
  admins: readonly UserType[],
  transitional: readonly UserType[],
) => {
  const entries = new Map(stored.map((entry) => [entry.email, entry]));
  const adminEmails = new Set(admins.map(emailOf));
  const live = new Map<string, UserType>();
  for (const user of [...admins, ...transitional]) live.set(emailOf(user), user);
  live.delete('');

  const recheck = new Set<string>();
  for (const entry of stored) {
    if (!live.has(entry.email) && (TRANSITIONAL.has(entry.status) || entry.group === ADMINS_GROUP))
      recheck.add(entry.email);
  }
  const puts: DirectoryEntry[] = [];
  for (const [email, user] of live) {
    const known = entries.get(email);
    const group = adminEmails.has(email)
      ? ADMINS_GROUP
      : known !== undefined && known.group !== ADMINS_GROUP
        ? known.group
        : undefined;
    if (group === undefined) {
      recheck.add(email);
      continue;
    }
    const entry = directoryEntryOf(user, group);
    if (!sameEntry(known, entry)) puts.push(entry);
  }
  if (recheck.size > MAX_LOOKUPS) return rebuildDirectory(stored);
  const deletes: string[] = [];
  const looked = await mapWithLimit([...recheck], LOOKUP_CONCURRENCY, async (email) => ({
    email,
    entry: await lookUpEntry(email),
  }));
  for (const { email, entry } of looked) {
    if (entry === undefined) deletes.push(email);
    else if (!sameEntry(entries.get(email), entry)) puts.push(entry);
  }
  if (puts.length > 0 || deletes.length > 0) {
    await writeDirectoryEntries(puts, deletes);
    for (const email of deletes) entries.delete(email);
    for (const entry of puts) {
      if (entry.email !== '') entries.set(entry.email, entry);
    }
  }
  return [...entries.values()].sort(byEmail).map(listedOf);
};

/**
 * Every account with its group, as the admin pages list them: from the copy, corrected live,
 * or from a full listing when the copy is missing or old or `fullListing` is asked for.
 */
export const readDirectory = async (options: { fullListing?: boolean } = {}): Promise<ListedUser[]> => {
  const last = options.fullListing ? null : await readLastFullListing();
  if (last === null || !(Date.now() - Date.parse(last) <= FULL_LISTING_INTERVAL_HOURS * HOUR_MS))
    return rebuildDirectory();
  const [stored, admins, ...transitional] = await Promise.all([
    readDirectoryEntries(),
    listGroupMembers(ADMINS_GROUP),
    ...TRANSITIONAL_STATUSES.map((status) => listUsersWithStatus(status)),
  ]);
  return correctedDirectory(stored, admins, transitional.flat());
};

/**
 * Applies a change the portal made to an account to the copy. Should the copy not take it,
 * the next read rebuilds it from a full listing instead, so the change is never lost.
 */
const noteAccountChange = async (write: () => Promise<void>): Promise<void> => {
  try {
    await write();
  } catch {
    await forgetFullListing();
  }
};

/** A new account (from AdminCreateUser's answer), in `group` or none yet. */
export const noteAccountCreated = (user: UserType | undefined, group: string | null): Promise<void> =>
  noteAccountChange(async () => {
    if (user !== undefined && emailOf(user) !== '') await putDirectoryEntry(directoryEntryOf(user, group));
  });

export const noteAccountChanged = (email: string, change: EntryChange): Promise<void> =>
  noteAccountChange(() => updateDirectoryEntry(email, { ...change, modified: nowIso() }));

/** Joined `group`: Admins is shown over Users, so joining Users leaves an admin's entry as it is. */
export const noteGroupJoined = (email: string, group: string): Promise<void> =>
  noteAccountChange(() =>
    updateDirectoryEntry(email, { group: shownGroup([group]) }, group === ADMINS_GROUP ? undefined : ADMINS_GROUP),
  );

export const noteAccountDeleted = (email: string): Promise<void> =>
  noteAccountChange(() => deleteDirectoryEntry(email));

/** The sign-in email changed: the entry moves to the new key. */
export const noteEmailChanged = (email: string, newEmail: string): Promise<void> =>
  noteAccountChange(async () => {
    const entry = await readDirectoryEntry(email);
    if (entry === undefined) return;
    await putDirectoryEntry({ ...entry, email: newEmail.toLowerCase(), modified: nowIso() });
    await deleteDirectoryEntry(email);
  });

import { z } from 'zod';
import type { Operation, PoolContext } from '../context.ts';
import { ERRORS } from '../errors.ts';
import type { UserRecord } from '../state.ts';
import { nextTokenPaging, parseInput, shapes } from '../validation.ts';
import { pageToken, readPageToken, requirePool, userType } from './common.ts';
import { requireGroup } from './groups.ts';

/**
 * ListUsers and ListUsersInGroup: at most 60 users a page, in creation order, with a
 * token naming the last user returned so that pages stay stable while users change.
 */

const FILTERABLE = new Set([
  'username',
  'email',
  'phone_number',
  'name',
  'given_name',
  'family_name',
  'preferred_username',
  'cognito:user_status',
  'status',
  'sub',
]);
/** `email ^= "ann"`: attribute, `=` (equals) or `^=` (starts with), double-quoted value. */
const FILTER = /^\s*([\w:]+)\s*(=|\^=)\s*"((?:[^"\\]|\\.)*)"\s*$/;

interface Filter {
  attribute: string;
  prefix: boolean;
  value: string;
}

function parseFilter(text: string | undefined): Filter | undefined {
  if (text === undefined || text.trim() === '') return undefined;
  const match = FILTER.exec(text);
  if (!match || !FILTERABLE.has(match[1]!)) throw ERRORS.invalidFilter();
  return { attribute: match[1]!, prefix: match[2] === '^=', value: match[3]!.replace(/\\(.)/g, '$1') };
}

/** Usernames and emails compare case-insensitively, as in a case-insensitive pool. */
function filterValue(user: UserRecord, attribute: string): string | undefined {
  switch (attribute) {
    case 'username':
      return user.username.toLowerCase();
    case 'email':
      return user.attributes.email?.toLowerCase();
    case 'cognito:user_status':
      return user.status;
    case 'status':
      return user.enabled ? 'Enabled' : 'Disabled';
    default:
      return user.attributes[attribute];
  }
}

function matcher(filter: Filter | undefined): (user: UserRecord) => boolean {
  if (!filter) return () => true;
  const caseless = filter.attribute === 'username' || filter.attribute === 'email';
  const wanted = caseless ? filter.value.toLowerCase() : filter.value;
  return (user) => {
    const actual = filterValue(user, filter.attribute);
    if (actual === undefined) return false;
    return filter.prefix ? actual.startsWith(wanted) : actual === wanted;
  };
}

function listPage(
  context: PoolContext,
  limit: number | undefined,
  token: string | undefined,
  matches: (user: UserRecord) => boolean,
  exactCandidate?: UserRecord | null,
) {
  const afterSeq = readPageToken('u', token);
  const size = limit ?? 60;
  if (size === 0) return { users: [], next: undefined };
  // An exact email/username filter names at most one user: look it up instead of scanning.
  if (exactCandidate !== undefined) {
    const found = exactCandidate && exactCandidate.seq > afterSeq && matches(exactCandidate) ? [exactCandidate] : [];
    return { users: found, next: undefined };
  }
  const { page, continueAfter } = context.store.listUsers(afterSeq, size, matches);
  return { users: page, next: continueAfter === undefined ? undefined : pageToken('u', continueAfter) };
}

const listUsers: Operation = {
  admin: true,
  run(context, body) {
    const input = parseInput(
      z.object({
        UserPoolId: shapes.userPoolId,
        AttributesToGet: shapes.attributeNames.optional(),
        Limit: shapes.limit.optional(),
        PaginationToken: shapes.paginationToken.optional(),
        Filter: z.string().max(256).optional(),
      }),
      body,
    );
    requirePool(context, input.UserPoolId);
    const filter = parseFilter(input.Filter);
    const exact =
      filter && !filter.prefix && (filter.attribute === 'email' || filter.attribute === 'username')
        ? (context.store.findUser(filter.value) ?? null)
        : undefined;
    const { users, next } = listPage(context, input.Limit, input.PaginationToken, matcher(filter), exact);
    return {
      Users: users.map((user) => userType(user, input.AttributesToGet)),
      ...(next ? { PaginationToken: next } : {}),
    };
  },
};

const listUsersInGroup: Operation = {
  admin: true,
  run(context, body) {
    const input = parseInput(
      z.object({ UserPoolId: shapes.userPoolId, GroupName: shapes.groupName, ...nextTokenPaging }),
      body,
    );
    requirePool(context, input.UserPoolId);
    const group = requireGroup(context, input.GroupName);
    const { users, next } = listPage(context, input.Limit, input.NextToken, (user) =>
      context.store.isMember(group.name, user.username),
    );
    return { Users: users.map((user) => userType(user)), ...(next ? { NextToken: next } : {}) };
  },
};

export const listUserOperations = {
  ListUsers: listUsers,
  ListUsersInGroup: listUsersInGroup,
};

import {
  AdminListGroupsForUserCommand,
  ListUsersCommand,
  ListUsersInGroupCommand,
  type UserType,
} from '@aws-sdk/client-cognito-identity-provider';
import { ENV } from '../../contracts/env.ts';
import { ADMINS_GROUP, USERS_GROUP } from './auth/groups.ts';
import { cognito } from './aws/cognito.ts';
import { requireEnv } from './env.ts';

/**
 * Reads of the user directory for the admin functions. Listings page through ListUsers and
 * ListUsersInGroup at their maximum page size and never call per user, so 10,000 accounts
 * cost ceil(10,000 / 60) calls per listing, plus the group pages.
 */
export const COGNITO_PAGE_SIZE = 60;

/** Groups in precedence order: a member of both is shown in the first. */
export const GROUPS = [ADMINS_GROUP, USERS_GROUP] as const;

export const emailOf = (user: UserType): string =>
  user.Attributes?.find((attribute) => attribute.Name === 'email')?.Value?.toLowerCase() ?? '';

/**
 * The one attribute the listings read (the username, status and dates come with every user
 * anyway): pages carry only the email, which a pool that signs in by email holds for every
 * account, instead of every attribute (sub, email_verified and any others) of 60 users.
 */
const LISTED_ATTRIBUTES = ['email'];

/** Every account with its username, status, dates and email. */
export const listAllUsers = async (): Promise<UserType[]> => {
  const users: UserType[] = [];
  let token: string | undefined;
  do {
    const page = await cognito.send(
      new ListUsersCommand({
        UserPoolId: requireEnv(ENV.userPoolId),
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

export const listGroupMembers = async (group: string): Promise<UserType[]> => {
  const users: UserType[] = [];
  let token: string | undefined;
  do {
    const page = await cognito.send(
      new ListUsersInGroupCommand({ UserPoolId: requireEnv(ENV.userPoolId), GroupName: group, Limit: COGNITO_PAGE_SIZE, NextToken: token }),
    );
    users.push(...(page.Users ?? []));
    token = page.NextToken;
  } while (token);
  return users;
};

/** Every user with their group: one listing of users and one of each group, in parallel. */
export const listUsersWithGroups = async (): Promise<{ user: UserType; group: string | null }[]> => {
  const [users, ...memberships] = await Promise.all([listAllUsers(), ...GROUPS.map((group) => listGroupMembers(group))]);
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
  const answer = await cognito.send(new AdminListGroupsForUserCommand({ UserPoolId: requireEnv(ENV.userPoolId), Username: username }));
  return (answer.Groups ?? []).flatMap((group) => (group.GroupName === undefined ? [] : [group.GroupName]));
};

import {
  AdminAddUserToGroupCommand,
  AdminCreateUserCommand,
  AdminDeleteUserCommand,
  AdminGetUserCommand,
  AdminListGroupsForUserCommand,
  type CognitoIdentityProviderClient,
} from '@aws-sdk/client-cognito-identity-provider';
import { randomInt } from 'node:crypto';
import { createConfirmedAccount } from '#clients/cognito.ts';
import { strongPassword } from '#contracts/fields.ts';
import { SPECIAL_CHARACTERS } from '#contracts/messages.ts';
import { ADMINS_GROUP } from '#contracts/groups.ts';
import { ToolError } from './cli.ts';

/** Accounts the tools create in the portal's user pool with the administrator's credentials. */

export interface Pool {
  readonly cognito: CognitoIdentityProviderClient;
  readonly userPoolId: string;
}

const isNotFound = (error: unknown) => error instanceof Error && error.name === 'UserNotFoundException';

/**
 * A random password the pool's policy accepts (the spec's: lower, upper, digit, symbol), long
 * enough to be worth showing once.
 */
export function generatePassword(length = 20): string {
  const classes = ['abcdefghijkmnopqrstuvwxyz', 'ABCDEFGHJKLMNPQRSTUVWXYZ', '23456789', SPECIAL_CHARACTERS];
  const all = classes.join('');
  const pick = (chars: string) => chars.charAt(randomInt(chars.length));
  const characters = [...classes.map(pick), ...Array.from({ length: length - classes.length }, () => pick(all))];
  for (let index = characters.length - 1; index > 0; index -= 1) {
    const other = randomInt(index + 1);
    [characters[index], characters[other]] = [characters[other]!, characters[index]!];
  }
  const password = characters.join('');
  strongPassword.parse(password);
  return password;
}

/** The account's groups, or undefined when there is no such account. */
export async function groupsOf(pool: Pool, email: string): Promise<string[] | undefined> {
  try {
    await pool.cognito.send(new AdminGetUserCommand({ UserPoolId: pool.userPoolId, Username: email }));
  } catch (error) {
    if (isNotFound(error)) return undefined;
    throw error;
  }
  const { Groups } = await pool.cognito.send(
    new AdminListGroupsForUserCommand({ UserPoolId: pool.userPoolId, Username: email }),
  );
  return (Groups ?? []).map((group) => group.GroupName ?? '');
}

export async function deleteAccount(pool: Pool, email: string): Promise<boolean> {
  try {
    await pool.cognito.send(new AdminDeleteUserCommand({ UserPoolId: pool.userPoolId, Username: email }));
    return true;
  } catch (error) {
    if (isNotFound(error)) return false;
    throw error;
  }
}

export interface NewAccount {
  readonly email: string;
  readonly group: string;
  /** Given: set as a permanent password (no invitation, temporaryPassword unused). Absent: see temporaryPassword. */
  readonly password?: string;
  /**
   * Given: the temporary password, no email. Absent (and no password): Cognito's invitation email with one it makes.
   */
  readonly temporaryPassword?: string;
}

/**
 * Creates an account with a verified email in its group: confirmed with its permanent
 * password (clients/cognito.ts), or invited. Nothing is left half-made: if a later call
 * fails, the new account is deleted again.
 */
export async function createAccount(pool: Pool, account: NewAccount): Promise<void> {
  if (account.password !== undefined) {
    await createConfirmedAccount(
      pool.cognito,
      pool.userPoolId,
      { email: account.email, password: account.password, groups: [account.group] },
      { removeIfUnfinished: true },
    );
    return;
  }
  const invite = account.temporaryPassword === undefined;
  await pool.cognito.send(
    new AdminCreateUserCommand({
      UserPoolId: pool.userPoolId,
      Username: account.email,
      UserAttributes: [
        { Name: 'email', Value: account.email },
        { Name: 'email_verified', Value: 'true' },
      ],
      ...(invite ? { DesiredDeliveryMediums: ['EMAIL'] } : { MessageAction: 'SUPPRESS' }),
      ...(account.temporaryPassword !== undefined && { TemporaryPassword: account.temporaryPassword }),
    }),
  );
  try {
    await pool.cognito.send(
      new AdminAddUserToGroupCommand({
        UserPoolId: pool.userPoolId,
        Username: account.email,
        GroupName: account.group,
      }),
    );
  } catch (error) {
    await deleteAccount(pool, account.email).catch(() => undefined);
    throw error;
  }
}

export type CreateAdminOutcome =
  | { readonly kind: 'invited' }
  | { readonly kind: 'created'; readonly temporaryPassword: string }
  | { readonly kind: 'promoted' }
  | { readonly kind: 'already-admin' };

/**
 * The first administrator (or another one): a new account in Admins, invited by Cognito's
 * email or with a temporary password to show once. Running it again changes nothing; an
 * existing account that is not an administrator is left alone unless `promote` is set.
 */
export async function createAdmin(
  pool: Pool,
  email: string,
  options: { showPassword: boolean; promote: boolean },
): Promise<CreateAdminOutcome> {
  const groups = await groupsOf(pool, email);
  if (groups?.includes(ADMINS_GROUP)) return { kind: 'already-admin' };
  if (groups) {
    if (!options.promote) {
      throw new ToolError(
        `${email} already has an account (groups: ${groups.join(', ') || 'none'}) and is not an administrator. Nothing was changed. Give --promote to add it to ${ADMINS_GROUP}.`,
      );
    }
    await pool.cognito.send(
      new AdminAddUserToGroupCommand({ UserPoolId: pool.userPoolId, Username: email, GroupName: ADMINS_GROUP }),
    );
    return { kind: 'promoted' };
  }
  if (!options.showPassword) {
    await createAccount(pool, { email, group: ADMINS_GROUP });
    return { kind: 'invited' };
  }
  const temporaryPassword = generatePassword();
  await createAccount(pool, { email, group: ADMINS_GROUP, temporaryPassword });
  return { kind: 'created', temporaryPassword };
}

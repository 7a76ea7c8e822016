import { isAwsError } from '../aws/config.ts';
import { liveGroupsOf } from '../directory.ts';
import { ForbiddenError, UnauthorizedError, UpstreamError } from '../errors.ts';
import { ADMIN_REQUIRED_MESSAGE, type Caller, SESSION_ENDED } from './caller.ts';
import { ADMINS_GROUP } from '#contracts/groups.ts';

/**
 * Admin rights as Cognito holds them now: a token that claims Admins is checked with one
 * AdminListGroupsForUser call, so removing someone from the group takes effect at once, not
 * when their token expires. A token without the claim costs nothing and grants nothing (a
 * newly promoted admin gets it with their next token). The caller comes back with the live
 * groups, so a demoted admin still in Users goes on as a user.
 */
export const confirmAdmin = async (caller: Caller): Promise<Caller> => {
  if (!caller.isAdmin) return caller;
  let groups: string[];
  try {
    groups = await liveGroupsOf(caller.username);
  } catch (error) {
    if (isAwsError(error, 'UserNotFoundException')) throw new UnauthorizedError(SESSION_ENDED);
    throw new UpstreamError("Could not check the account's groups with the identity provider");
  }
  return { ...caller, groups, isAdmin: groups.includes(ADMINS_GROUP) };
};

/** `confirmAdmin`, refusing anyone who is not an admin now (403). */
export const requireLiveAdmin = async (caller: Caller): Promise<Caller> => {
  const confirmed = await confirmAdmin(caller);
  if (!confirmed.isAdmin) throw new ForbiddenError(ADMIN_REQUIRED_MESSAGE);
  return confirmed;
};

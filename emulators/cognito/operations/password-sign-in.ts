import { createHmac } from 'node:crypto';
import type { PoolContext } from '../context.ts';
import { requireDevice } from '../devices.ts';
import { ERRORS, invalidParameter } from '../errors.ts';
import { createServerChallenge, decoyVerifier, parseClientPublicValue, passwordMatches } from '../srp.ts';
import { revealMissingUser } from './common.ts';
import {
  assertNotLockedOut,
  continueAfterPassword,
  recordWrongPassword,
  type SignInResponse,
} from './sign-in-steps.ts';

/**
 * The two ways a password is proven: sent as it is (USER_PASSWORD_AUTH, and USER_AUTH's PASSWORD)
 * or by SRP (USER_SRP_AUTH, and USER_AUTH's PASSWORD_SRP), whose proof answers PASSWORD_VERIFIER.
 */

/**
 * A password sent as it is. `deviceKey` is the DEVICE_KEY the client named, where the pool tracks
 * devices: an unknown one is refused before the attempt counts.
 */
export function passwordSignIn(
  context: PoolContext,
  username: string,
  password: string,
  deviceKey?: string,
): SignInResponse {
  const user = context.store.findUser(username);
  revealMissingUser(context, user);
  if (!user?.password) throw ERRORS.incorrectCredentials();
  if (deviceKey !== undefined) requireDevice(user, deviceKey);
  assertNotLockedOut(context, user);
  if (!passwordMatches(user.password, context.poolName, user.username, password)) recordWrongPassword(context, user);
  return continueAfterPassword(context, user, deviceKey);
}

/**
 * PASSWORD_VERIFIER challenge. An unknown account gets a decoy challenge with a stable
 * salt and fails only at the proof, so it looks exactly like a wrong password.
 */
export function startSrp(context: PoolContext, username: string, srpA: string): SignInResponse {
  const A = parseClientPublicValue(srpA);
  if (A === undefined) throw invalidParameter('Invalid SRP_A value.');
  const user = context.store.findUser(username);
  revealMissingUser(context, user);
  const known = user?.password ? { user, password: user.password } : undefined;
  const userIdForSrp = known ? known.user.username : username;
  const salt = known
    ? known.password.salt
    : createHmac('sha256', context.store.meta.decoySecret).update(username.toLowerCase()).digest('hex').slice(0, 32);
  const verifier = known ? known.password.verifier : decoyVerifier();
  const challenge = createServerChallenge(verifier);
  const secretBlock = context.sessions.startSrp({
    username: known?.user.username,
    userIdForSrp,
    verifier,
    A,
    challenge,
  });
  return {
    ChallengeName: 'PASSWORD_VERIFIER',
    ChallengeParameters: {
      SALT: salt,
      SECRET_BLOCK: secretBlock,
      SRP_B: challenge.B,
      USERNAME: userIdForSrp,
      USER_ID_FOR_SRP: userIdForSrp,
    },
  };
}

import type { PoolContext } from '../context.ts';
import { requireDevice } from '../devices.ts';
import { codeMismatch, ERRORS } from '../errors.ts';
import { verifyAssertion } from '../passkey-verification.ts';
import {
  newWebAuthnChallenge,
  passkeyMfaActive,
  requestOptions,
  requirePasskeyPool,
  signInPasskeys,
  signInUserVerification,
} from '../passkeys.ts';
import type { UserAuthState } from '../sessions.ts';
import type { UserRecord } from '../state.ts';
import { requiredParameter, revealMissingUser } from './common.ts';
import { passwordSignIn, startSrp } from './password-sign-in.ts';
import { accountStep, completeSignIn, mfaChallenge, type SignInResponse } from './sign-in-steps.ts';

/**
 * Choice-based sign-in (the USER_AUTH flow): InitiateAuth with USERNAME and an optional
 * PREFERRED_CHALLENGE. A preferred challenge the user can answer starts at once; otherwise the
 * answer is SELECT_CHALLENGE with AvailableChallenges, the first factors the pool allows
 * (SignInPolicy.AllowedFirstAuthFactors) and this user has: PASSWORD and PASSWORD_SRP for a
 * password, WEB_AUTHN for a passkey of the pool's relying party. RespondToAuthChallenge then
 * answers SELECT_CHALLENGE with ANSWER (or names PASSWORD or PASSWORD_SRP directly) and the
 * challenge's own parameters: PASSWORD, SRP_A (then PASSWORD_VERIFIER), or, for WEB_AUTHN, the
 * CREDENTIAL_REQUEST_OPTIONS to answer with CREDENTIAL.
 * https://docs.aws.amazon.com/cognito-user-identity-pools/latest/APIReference/API_InitiateAuth.html (AuthParameters, USER_AUTH)
 * https://docs.aws.amazon.com/cognito-user-identity-pools/latest/APIReference/API_RespondToAuthChallenge.html (ChallengeResponses)
 * https://docs.aws.amazon.com/cognito/latest/developerguide/authentication-flows-selection-sdk.html
 *
 * After a passkey, MFA still applies unless passkeys count as MFA in the pool
 * (WebAuthnConfiguration.FactorConfiguration MULTI_FACTOR_WITH_USER_VERIFICATION: "passkey
 * authentication with user verification satisfies MFA requirements"), the user turned passkey MFA
 * on (WebAuthnMfaSettings.Enabled: "passkey sign-in is available when MFA is required") and the
 * authenticator verified the user (the UV flag of the assertion's authenticator data). Otherwise the
 * passkey is a first factor and the sign-in goes on to the authenticator's code, or to its set-up.
 * For a user with passkey MFA, and in a pool that requires user verification, the request options
 * require it and an assertion without the UV flag is refused (passkeys.ts, signInUserVerification).
 */

type Parameters = Record<string, string>;

/** The challenges RespondToAuthChallenge routes here. */
export const USER_AUTH_CHALLENGES: ReadonlySet<string> = new Set([
  'SELECT_CHALLENGE',
  'WEB_AUTHN',
  'PASSWORD',
  'PASSWORD_SRP',
]);

/** PREFERRED_CHALLENGE values (the first factors of AuthFactorType and PASSWORD_SRP). */
const FIRST_FACTOR_CHALLENGES = new Set(['PASSWORD', 'PASSWORD_SRP', 'WEB_AUTHN', 'EMAIL_OTP', 'SMS_OTP']);

/**
 * What the user may start with. An account that does not exist is answered as one with a password
 * and no passkey, so that the choice reveals nothing where user existence errors are prevented.
 */
function availableChallenges(context: PoolContext, user: UserRecord | undefined): string[] {
  const allowed = context.allowedFirstAuthFactors;
  const available: string[] = [];
  if (allowed.includes('WEB_AUTHN') && context.webAuthn && user && signInPasskeys(context.webAuthn, user).length > 0) {
    available.push('WEB_AUTHN');
  }
  if (allowed.includes('PASSWORD') && (!user || user.password)) available.push('PASSWORD', 'PASSWORD_SRP');
  return available;
}

/** The DEVICE_KEY a client sent, where the pool tracks devices (a device of this user). */
function namedDevice(context: PoolContext, user: UserRecord | undefined, parameters: Parameters | undefined) {
  const deviceKey = context.deviceTracking ? parameters?.DEVICE_KEY || undefined : undefined;
  if (deviceKey !== undefined && user) requireDevice(user, deviceKey);
  return deviceKey;
}

/** InitiateAuth with AuthFlow USER_AUTH. */
export function startUserAuth(
  context: PoolContext,
  username: string,
  parameters: Parameters | undefined,
): SignInResponse {
  const user = context.store.findUser(username);
  revealMissingUser(context, user);
  const preferred = parameters?.PREFERRED_CHALLENGE || undefined;
  if (preferred !== undefined && !FIRST_FACTOR_CHALLENGES.has(preferred))
    throw ERRORS.invalidPreferredChallenge(preferred);
  const available = availableChallenges(context, user);
  const state: UserAuthState = {
    requested: username,
    ...(user ? { username: user.username } : {}),
    challenge: 'SELECT_CHALLENGE',
  };
  if (preferred !== undefined && available.includes(preferred)) return begin(context, preferred, state, parameters);
  if (available.length === 0) throw ERRORS.incorrectCredentials();
  return {
    ChallengeName: 'SELECT_CHALLENGE',
    Session: context.sessions.nextUserAuth({ ...state, available }),
    ChallengeParameters: {},
    AvailableChallenges: available,
  };
}

/** The first step of a chosen challenge; `previous` is the SELECT_CHALLENGE session it ends. */
function begin(
  context: PoolContext,
  challenge: string,
  state: UserAuthState,
  parameters: Parameters | undefined,
  previous?: string,
): SignInResponse {
  const user = state.username === undefined ? undefined : context.store.findUser(state.username);
  switch (challenge) {
    case 'PASSWORD': {
      const password = requiredParameter(parameters, 'PASSWORD');
      if (previous !== undefined) context.sessions.userAuth.delete(previous);
      return passwordSignIn(context, state.requested, password, namedDevice(context, user, parameters));
    }
    case 'PASSWORD_SRP': {
      const srpA = requiredParameter(parameters, 'SRP_A');
      if (previous !== undefined) context.sessions.userAuth.delete(previous);
      return startSrp(context, state.requested, srpA);
    }
    case 'WEB_AUTHN': {
      const pool = requirePasskeyPool(context);
      if (!user) throw ERRORS.invalidSession();
      const webAuthn = { challenge: newWebAuthnChallenge(), userVerification: signInUserVerification(pool, user) };
      const session = context.sessions.nextUserAuth({ ...state, challenge: 'WEB_AUTHN', webAuthn }, previous);
      const options = requestOptions(pool, user, webAuthn.challenge, webAuthn.userVerification);
      return {
        ChallengeName: 'WEB_AUTHN',
        Session: session,
        ChallengeParameters: { CREDENTIAL_REQUEST_OPTIONS: JSON.stringify(options) },
      };
    }
    default:
      throw ERRORS.challengeNotAvailable(challenge);
  }
}

/** The answer names the account the sign-in is for (USERNAME, or an alias of it). */
function assertSameAccount(context: PoolContext, state: UserAuthState, responses: Parameters | undefined): void {
  const named = requiredParameter(responses, 'USERNAME');
  const same =
    state.username === undefined
      ? named.toLowerCase() === state.requested.toLowerCase()
      : context.store.findUser(named)?.username === state.username;
  if (!same) throw ERRORS.incorrectCredentials();
}

/** RespondToAuthChallenge for SELECT_CHALLENGE, PASSWORD, PASSWORD_SRP and WEB_AUTHN. */
export function respondUserAuth(
  context: PoolContext,
  challengeName: string,
  session: string | undefined,
  responses: Parameters | undefined,
): SignInResponse | Promise<SignInResponse> {
  if (session === undefined) throw ERRORS.missingAuthParameter('Session');
  const state = context.sessions.userAuth.get(session);
  if (state.challenge === 'SELECT_CHALLENGE' && challengeName !== 'WEB_AUTHN') {
    assertSameAccount(context, state, responses);
    const answer = challengeName === 'SELECT_CHALLENGE' ? requiredParameter(responses, 'ANSWER') : challengeName;
    if (!state.available?.includes(answer)) throw ERRORS.challengeNotAvailable(answer);
    return begin(context, answer, state, responses, session);
  }
  if (state.challenge !== 'WEB_AUTHN' || challengeName !== 'WEB_AUTHN') {
    throw codeMismatch('Invalid code or auth state for the user.');
  }
  return answerWebAuthn(context, state, session, responses);
}

/**
 * WEB_AUTHN: the assertion (CREDENTIAL) signs the challenge of this session, which works once,
 * right or wrong.
 */
async function answerWebAuthn(
  context: PoolContext,
  state: UserAuthState,
  session: string,
  responses: Parameters | undefined,
): Promise<SignInResponse> {
  context.sessions.userAuth.delete(session);
  const user = state.username === undefined ? undefined : context.store.findUser(state.username);
  if (!user || !state.webAuthn) throw ERRORS.invalidSession();
  assertSameAccount(context, state, responses);
  const credential = requiredParameter(responses, 'CREDENTIAL');
  const deviceKey = namedDevice(context, user, responses);
  const pool = requirePasskeyPool(context);
  const assertion = await verifyAssertion(pool, user, state.webAuthn, credential);
  // The account may have been deleted while the signature was checked.
  if (context.store.findUser(user.username) !== user) throw ERRORS.invalidSession();
  assertion.passkey.counter = assertion.newCounter;
  context.store.saveUser(user);
  const authTime = Math.floor(context.now() / 1000);
  const step = accountStep(context, user, authTime, deviceKey);
  if (step) return step;
  if (passkeyMfaActive(pool, user) && assertion.userVerified) {
    return completeSignIn(context, user, authTime, deviceKey);
  }
  return mfaChallenge(context, user, authTime, undefined, deviceKey);
}

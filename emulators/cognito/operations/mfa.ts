import { z } from 'zod';
import type { Operation, PoolContext } from '../context.ts';
import { ERRORS, invalidParameter } from '../errors.ts';
import type { ChallengeState } from '../sessions.ts';
import { authenticatorSecret, type SoftwareToken, type UserRecord } from '../state.ts';
import { checkTotp, newTotpSecret } from '../software-token.ts';
import { authenticate } from '../tokens.ts';
import { parseInput, shapes } from '../validation.ts';
import { requirePool, requireUser } from './common.ts';
import { challengeUser, countWrongCode } from './sign-in-steps.ts';

/**
 * Authenticator enrolment, removal and MFA preferences. AssociateSoftwareToken and
 * VerifySoftwareToken take either an access token (a signed-in user adds or replaces an
 * authenticator) or the Session of an MFA_SETUP challenge (first sign-in).
 */

const associateInput = z.object({ AccessToken: shapes.accessToken.optional(), Session: shapes.session.optional() });
const verifyInput = associateInput.extend({
  UserCode: shapes.userCode,
  FriendlyDeviceName: z.string().max(131072).optional(),
});

type Caller = { user: UserRecord; session?: { id: string; state: ChallengeState } };

function caller(
  context: PoolContext,
  input: { AccessToken?: string | undefined; Session?: string | undefined },
): Caller {
  if ((input.AccessToken === undefined) === (input.Session === undefined)) {
    throw invalidParameter('Exactly one of AccessToken or Session must be provided.');
  }
  if (input.AccessToken !== undefined) return { user: authenticate(context, input.AccessToken).user };
  const id = input.Session!;
  const state = context.sessions.challenges.get(id);
  if (state.challenge !== 'MFA_SETUP') throw ERRORS.invalidSession();
  return { user: challengeUser(context, state), session: { id, state } };
}

/** Tells the holder of a copy of the account's authenticator secret (local mode's stack.json) what it is now. */
const authenticatorChanged = (context: PoolContext, user: UserRecord) =>
  context.onAuthenticatorChanged(user.attributes.email, authenticatorSecret(user.softwareToken));

const associateSoftwareToken: Operation = {
  run(context, body) {
    const { user, session } = caller(context, parseInput(associateInput, body));
    const secret = newTotpSecret();
    // A verified authenticator keeps working until the new one is verified.
    user.softwareToken = { ...user.softwareToken, pendingSecret: secret };
    context.store.saveUser(user);
    authenticatorChanged(context, user);
    if (!session) return { SecretCode: secret };
    const next = context.sessions.nextChallenge({ ...session.state, setup: 'associated' }, session.id);
    return { SecretCode: secret, Session: next };
  },
};

const verifySoftwareToken: Operation = {
  run(context, body) {
    const input = parseInput(verifyInput, body);
    const { user, session } = caller(context, input);
    const { pendingSecret } = user.softwareToken;
    if (!pendingSecret || (session && session.state.setup === undefined)) throw ERRORS.softwareTokenNotFound();
    // A new secret has no used codes yet; from now on its codes work once.
    const check = checkTotp(pendingSecret, input.UserCode, context.now(), undefined);
    if (!check.ok) {
      if (session) countWrongCode(context, session.state, session.id);
      throw ERRORS.softwareTokenMismatch();
    }
    // The verified authenticator replaces any previous one. The MFA preference is left as it
    // was: after first-time setup GetUser reports no UserMFASettingList and no
    // PreferredMfaSetting until SetUserMFAPreference turns TOTP on. The TOTP developer guide
    // makes enabling a separate step after verification ("Next, you can enable TOTP MFA for
    // your user or set TOTP as the preferred MFA method for your user",
    // https://docs.aws.amazon.com/cognito/latest/developerguide/user-pool-settings-mfa-totp.html),
    // and Amplify's docs advise setting the preference before reading it (aws-amplify/docs#5635).
    const { enabled, preferred } = user.softwareToken;
    user.softwareToken = { secret: pendingSecret, enabled, preferred, lastUsedStep: check.step };
    user.updatedAt = context.now();
    context.store.saveUser(user);
    authenticatorChanged(context, user);
    if (!session) return { Status: 'SUCCESS' };
    const next = context.sessions.nextChallenge({ ...session.state, setup: 'verified' }, session.id);
    return { Status: 'SUCCESS', Session: next };
  },
};

const preferenceShape = {
  SMSMfaSettings: shapes.mfaSettings.optional(),
  SoftwareTokenMfaSettings: shapes.mfaSettings.optional(),
  EmailMfaSettings: shapes.mfaSettings.optional(),
  WebAuthnMfaSettings: z.object({ Enabled: z.boolean().optional() }).optional(),
};
type Setting = { Enabled?: boolean | undefined; PreferredMfa?: boolean | undefined } | undefined;
type Preferences = {
  SMSMfaSettings?: Setting;
  SoftwareTokenMfaSettings?: Setting;
  EmailMfaSettings?: Setting;
  WebAuthnMfaSettings?: { Enabled?: boolean | undefined } | undefined;
};

/** The TOTP preference a request asks for; only a verified authenticator can be enabled. */
function nextSoftwareToken(user: UserRecord, totp: Setting): SoftwareToken {
  if (!totp) return user.softwareToken;
  const enabled = totp.Enabled ?? user.softwareToken.enabled;
  const preferred = enabled && (totp.PreferredMfa ?? user.softwareToken.preferred);
  if ((enabled || totp.PreferredMfa) && !user.softwareToken.secret) throw ERRORS.softwareTokenNotVerified();
  return { ...user.softwareToken, enabled, preferred };
}

/**
 * Passkey MFA as a request asks for it. Turning it on needs passkeys that count as MFA in the pool
 * ("To activate this setting, the FactorConfiguration of your user pool WebAuthnConfiguration must
 * be MULTI_FACTOR_WITH_USER_VERIFICATION"), and while it is on the user must keep "at least one
 * other MFA method such as SMS, TOTP, or email activated to prevent account lockout"
 * (WebAuthnMfaSettingsType,
 * https://docs.aws.amazon.com/cognito-user-identity-pools/latest/APIReference/API_WebAuthnMfaSettingsType.html):
 * here TOTP, enabled in the preference.
 */
function nextPasskeyMfa(context: PoolContext, user: UserRecord, token: SoftwareToken, preferences: Preferences) {
  const asked = preferences.WebAuthnMfaSettings?.Enabled;
  if (asked === true && context.webAuthn?.factorConfiguration !== 'MULTI_FACTOR_WITH_USER_VERIFICATION') {
    throw ERRORS.passkeyMfaNotAllowed();
  }
  const enabled = asked ?? user.passkeyMfa === true;
  if (enabled && !(token.secret !== undefined && token.enabled)) throw ERRORS.passkeyMfaNeedsOtherMfa();
  return enabled;
}

/**
 * TOTP is the pool's only MFA code; SMS and email cannot be turned on. Nothing changes when any
 * part of the request is refused.
 */
function applyPreferences(context: PoolContext, user: UserRecord, preferences: Preferences): void {
  if (preferences.SMSMfaSettings?.Enabled || preferences.SMSMfaSettings?.PreferredMfa) throw ERRORS.smsNotConfigured();
  if (preferences.EmailMfaSettings?.Enabled || preferences.EmailMfaSettings?.PreferredMfa)
    throw ERRORS.emailMfaNotConfigured();
  if (!preferences.SoftwareTokenMfaSettings && !preferences.WebAuthnMfaSettings) return;
  // Only the preference changes: the operation "doesn't reset an existing TOTP MFA for a
  // user", and a pool that requires MFA keeps asking for the verified authenticator's code.
  const token = nextSoftwareToken(user, preferences.SoftwareTokenMfaSettings);
  const passkeyMfa = nextPasskeyMfa(context, user, token, preferences);
  user.softwareToken = token;
  if (passkeyMfa) user.passkeyMfa = true;
  else delete user.passkeyMfa;
  user.updatedAt = context.now();
  context.store.saveUser(user);
}

const setUserMfaPreference: Operation = {
  run(context, body) {
    const input = parseInput(z.object({ AccessToken: shapes.accessToken, ...preferenceShape }), body);
    applyPreferences(context, authenticate(context, input.AccessToken).user, input);
    return {};
  },
};

const adminSetUserMfaPreference: Operation = {
  admin: true,
  run(context, body) {
    const input = parseInput(
      z.object({ UserPoolId: shapes.userPoolId, Username: shapes.username, ...preferenceShape }),
      body,
    );
    requirePool(context, input.UserPoolId);
    applyPreferences(context, requireUser(context, input.Username), input);
    return {};
  },
};

/**
 * Removes the TOTP factor (a lost authenticator); the next sign-in sets up a new one. Passkey MFA,
 * which needs another MFA method active, goes with it: a passkey is a first factor again until the
 * user has an authenticator and turns passkey MFA back on.
 */
const adminDeleteSoftwareToken: Operation = {
  admin: true,
  run(context, body) {
    const input = parseInput(z.object({ UserPoolId: shapes.userPoolId, Username: shapes.username }), body);
    requirePool(context, input.UserPoolId);
    const user = requireUser(context, input.Username);
    if (user.status === 'UNCONFIRMED') throw ERRORS.userNotConfirmed();
    user.softwareToken = { enabled: false, preferred: false };
    delete user.passkeyMfa;
    user.updatedAt = context.now();
    context.store.saveUser(user);
    authenticatorChanged(context, user);
    return {};
  },
};

export const mfaOperations = {
  AdminDeleteSoftwareToken: adminDeleteSoftwareToken,
  AssociateSoftwareToken: associateSoftwareToken,
  VerifySoftwareToken: verifySoftwareToken,
  SetUserMFAPreference: setUserMfaPreference,
  AdminSetUserMFAPreference: adminSetUserMfaPreference,
};

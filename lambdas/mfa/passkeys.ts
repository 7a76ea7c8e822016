import {
  CompleteWebAuthnRegistrationCommand,
  type CompleteWebAuthnRegistrationCommandInput,
  DeleteWebAuthnCredentialCommand,
  ListWebAuthnCredentialsCommand,
  SetUserMFAPreferenceCommand,
  StartWebAuthnRegistrationCommand,
  type WebAuthnCredentialDescription,
} from '@aws-sdk/client-cognito-identity-provider';
import {
  PASSKEY_ADDED_MESSAGE,
  PASSKEY_ERRORS,
  PASSKEY_NOT_FOUND_MESSAGE,
  PASSKEY_REMOVED_MESSAGE,
  PASSKEYS_OFF_MESSAGE,
  type Passkey,
  type PasskeyList,
  type RegistrationCredential,
} from '#contracts/passkeys.ts';
import type { Caller } from '../shared/auth/caller.ts';
import { cognito } from '../shared/aws/cognito.ts';
import { isAwsError } from '../shared/aws/config.ts';
import { clearPasskeyReset, readPasskeys, recordPasskeyUse, syncPasskeys } from '../shared/data/passkeys.ts';
import {
  BadRequestError,
  ConflictError,
  HttpError,
  NotFoundError,
  TooManyRequestsError,
  UnauthorizedError,
  UpstreamError,
} from '../shared/errors.ts';

const WEB_AUTHN_MFA = 'WEB_AUTHN';
/** Cognito's page size limit for ListWebAuthnCredentials. */
const CREDENTIAL_PAGE = 20;
/** A sign-in reported as made with a passkey must have happened this recently (seconds). */
const RECENT_PASSKEY_SIGN_IN_SECONDS = 120;

/** Cognito's refusals of the passkey calls, in the user's terms; anything else is the portal's failure. */
const passkeyStep = async <T>(failure: string, call: () => Promise<T>): Promise<T> => {
  try {
    return await call();
  } catch (error) {
    if (error instanceof HttpError) throw error;
    if (isAwsError(error, 'WebAuthnNotEnabledException', 'WebAuthnConfigurationMissingException'))
      throw new ConflictError(PASSKEYS_OFF_MESSAGE);
    if (isAwsError(error, 'WebAuthnRelyingPartyMismatchException', 'WebAuthnOriginNotAllowedException'))
      throw new BadRequestError(PASSKEY_ERRORS.relyingPartyMismatch);
    if (isAwsError(error, 'WebAuthnChallengeNotFoundException'))
      throw new BadRequestError(PASSKEY_ERRORS.aborted, { reason: 'The registration expired or was already used' });
    if (isAwsError(error, 'WebAuthnCredentialNotSupportedException', 'WebAuthnClientMismatchException'))
      throw new BadRequestError(PASSKEY_ERRORS.registrationFailed, { reason: errorMessage(error) });
    if (isAwsError(error, 'LimitExceededException'))
      throw new ConflictError('You have as many passkeys as an account may hold. Remove one to add another.');
    if (isAwsError(error, 'InvalidParameterException'))
      throw new BadRequestError(PASSKEY_ERRORS.registrationFailed, { reason: errorMessage(error) });
    if (isAwsError(error, 'ResourceNotFoundException')) throw new NotFoundError(PASSKEY_NOT_FOUND_MESSAGE);
    if (isAwsError(error, 'NotAuthorizedException'))
      throw new UnauthorizedError('Your session is no longer valid. Please sign in again.');
    if (isAwsError(error, 'TooManyRequestsException'))
      throw new TooManyRequestsError('Too many attempts. Please wait a moment and try again.');
    throw new UpstreamError(failure);
  }
};

const errorMessage = (error: unknown) => (error instanceof Error ? error.message : undefined);

const asPasskey = (credential: WebAuthnCredentialDescription): Omit<Passkey, 'lastUsedAt'> | undefined =>
  credential.CredentialId && credential.CreatedAt
    ? {
        credentialId: credential.CredentialId,
        name: credential.FriendlyCredentialName ?? 'Passkey',
        createdAt: credential.CreatedAt.getTime(),
        ...(credential.AuthenticatorAttachment ? { attachment: credential.AuthenticatorAttachment } : {}),
      }
    : undefined;

/** Every passkey Cognito holds for the caller (their own token: no administrator variant exists). */
const listHeld = async (caller: Caller): Promise<Omit<Passkey, 'lastUsedAt'>[]> => {
  const held: Omit<Passkey, 'lastUsedAt'>[] = [];
  let token: string | undefined;
  do {
    const page = await passkeyStep('Failed to list passkeys', () =>
      cognito.send(
        new ListWebAuthnCredentialsCommand({
          AccessToken: caller.accessToken,
          MaxResults: CREDENTIAL_PAGE,
          NextToken: token,
        }),
      ),
    );
    for (const credential of page.Credentials ?? []) {
      const passkey = asPasskey(credential);
      if (passkey) held.push(passkey);
    }
    token = page.NextToken;
  } while (token);
  return held;
};

const deleteHeld = (caller: Caller, credentialId: string) =>
  passkeyStep('Failed to remove the passkey', () =>
    cognito.send(new DeleteWebAuthnCredentialCommand({ AccessToken: caller.accessToken, CredentialId: credentialId })),
  );

/**
 * The caller's passkeys. With a token from a sign-in (one that may call Cognito), Cognito's own
 * list is read, what an administrator's reset left behind is deleted, and the portal's record is
 * brought in line; a token from a refresh reads the record.
 */
export const listPasskeys = async (caller: Caller, message?: string): Promise<PasskeyList> => {
  const passkeyMfa = caller.profile.UserMFASettingList?.includes(WEB_AUTHN_MFA) ?? false;
  const record = await readPasskeys(caller.email);
  if (!caller.canCallCognito) return { passkeys: record.passkeys, passkeyMfa, ...(message ? { message } : {}) };
  let held = await listHeld(caller);
  if (record.resetAt !== undefined) {
    const resetAt = record.resetAt;
    const stale = held.filter((passkey) => passkey.createdAt <= resetAt);
    for (const passkey of stale) await deleteHeld(caller, passkey.credentialId);
    held = held.filter((passkey) => passkey.createdAt > resetAt);
    await clearPasskeyReset(caller.email, resetAt);
  }
  const passkeys = await syncPasskeys(caller.email, held, record.passkeys);
  return { passkeys, passkeyMfa, ...(message ? { message } : {}) };
};

/** START_PASSKEY_REGISTRATION: Cognito's creation options, which the browser hands to navigator.credentials.create. */
export const startRegistration = async (caller: Caller): Promise<{ options: Record<string, unknown> }> => {
  const result = await passkeyStep('Failed to start adding a passkey', () =>
    cognito.send(new StartWebAuthnRegistrationCommand({ AccessToken: caller.accessToken })),
  );
  const options = result.CredentialCreationOptions;
  if (!options || typeof options !== 'object' || Array.isArray(options))
    throw new UpstreamError('Failed to start adding a passkey');
  return { options: options as Record<string, unknown> };
};

/**
 * COMPLETE_PASSKEY_REGISTRATION: Cognito verifies the credential against the challenge it issued;
 * then passkeys with user verification count as this account's MFA (its authenticator app stays
 * the other factor Cognito requires).
 */
export const completeRegistration = async (
  caller: Caller,
  credential: RegistrationCredential,
): Promise<PasskeyList> => {
  await passkeyStep('Failed to add the passkey', () =>
    cognito.send(
      new CompleteWebAuthnRegistrationCommand({
        AccessToken: caller.accessToken,
        // Validated JSON (contracts/passkeys.ts), passed on as the document it is.
        Credential: credential as NonNullable<CompleteWebAuthnRegistrationCommandInput['Credential']>,
      }),
    ),
  );
  await passkeyStep('Failed to let passkeys count as MFA', () =>
    cognito.send(
      new SetUserMFAPreferenceCommand({ AccessToken: caller.accessToken, WebAuthnMfaSettings: { Enabled: true } }),
    ),
  );
  const listed = await listPasskeys(caller, PASSKEY_ADDED_MESSAGE);
  return { ...listed, passkeyMfa: true };
};

/** DELETE_PASSKEY: gone from Cognito, then from the record; the last one gone, passkey MFA is off. */
export const deletePasskey = async (caller: Caller, credentialId: string): Promise<PasskeyList> => {
  await deleteHeld(caller, credentialId);
  const listed = await listPasskeys(caller, PASSKEY_REMOVED_MESSAGE);
  if (listed.passkeys.length > 0) return listed;
  await passkeyStep('Failed to update the MFA settings', () =>
    cognito.send(
      new SetUserMFAPreferenceCommand({ AccessToken: caller.accessToken, WebAuthnMfaSettings: { Enabled: false } }),
    ),
  );
  return { ...listed, passkeyMfa: false };
};

/**
 * PASSKEY_USED: the browser reports which passkey its sign-in used, right after it. Only the
 * time of the caller's own recent sign-in is written, on a passkey the record holds for them.
 */
export const notePasskeyUse = async (
  caller: Caller,
  credentialId: string,
  nowMs = Date.now(),
): Promise<{ message: string }> => {
  if (Math.floor(nowMs / 1000) - caller.authTime > RECENT_PASSKEY_SIGN_IN_SECONDS)
    throw new BadRequestError('Only a sign-in of the last two minutes can be recorded');
  const recorded = await recordPasskeyUse(caller.email, credentialId, caller.authTime * 1000);
  if (!recorded) throw new NotFoundError(PASSKEY_NOT_FOUND_MESSAGE);
  return { message: 'Recorded' };
};

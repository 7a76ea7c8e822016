import {
  associateResponseSchema,
  disableMfaResponseSchema,
  mfaStatusResponseSchema,
  REAUTHENTICATION_MESSAGE,
  REAUTHENTICATION_REQUIRED,
  verifyResponseSchema,
  type MfaStatus,
} from '#contracts/mfa.ts';
import { NO_TOKEN_MESSAGE } from '#contracts/errors.ts';
import { passkeyListResponseSchema, passkeyRegistrationOptionsSchema, type PasskeyList } from '#contracts/passkeys.ts';
import { ApiError, type ApiClient } from '#web/lib/api.ts';
import type { MfaSetupDriver } from '#web/lib/auth/types.ts';
import type { RegistrationResponseJSON } from '@simplewebauthn/browser';

export const MFA_MESSAGES = {
  associateFailed: 'Failed to associate software token',
  verifyFailed: 'Failed to verify software token',
  statusFailed: 'Failed to get MFA status',
  loadFailed: 'Failed to load MFA status',
  disableFailed: 'Failed to disable MFA',
  authRequired: 'Authentication required',
  wizardAssociateFailed: 'Failed to generate MFA secret',
  wizardVerifyFailed: 'Failed to verify code',
  disableConfirm: 'Are you sure you want to disable MFA? This will make your account less secure.',
  disabled: 'MFA has been disabled successfully',
  setupComplete: 'MFA setup completed successfully!',
  replaceIntro:
    'Scan the code below with your new authenticator app. Your current authenticator keeps working until you verify a code from the new one.',
  replaced: 'New authenticator set up successfully! Codes from your previous app no longer work.',
  passkeysLoadFailed: 'Failed to load passkeys',
  passkeyStartFailed: 'Failed to start adding a passkey',
  passkeyAddFailed: 'Failed to add the passkey',
  passkeyRemoveFailed: 'Failed to remove the passkey',
} as const;

const needsReauthentication = (error: unknown) =>
  error instanceof ApiError && error.status === 401 && error.reason === REAUTHENTICATION_REQUIRED;

/**
 * Errors of the MFA function: 'Authentication required' without a session; the function's
 * own text for a refused request (e.g. 'Failed to set MFA preference'); else `fallback`.
 */
function mfaError(error: unknown, fallback: string): Error {
  if (!(error instanceof ApiError)) return new Error(fallback);
  if (needsReauthentication(error)) return new Error(REAUTHENTICATION_MESSAGE);
  if (error.status === 401 || error.error === NO_TOKEN_MESSAGE) return new Error(MFA_MESSAGES.authRequired);
  if (error.status >= 400 && error.status < 500 && error.error) return new Error(error.error);
  return new Error(fallback);
}

/**
 * Asks the person to sign in again (password and current code); resolves true once they
 * have, false if they decline.
 */
export type ConfirmIdentity = () => Promise<boolean>;

/**
 * The MFA management function, always about the caller's own account. Authenticator and
 * passkey changes need a recent sign-in: when the function asks for one, `confirmIdentity` runs
 * and the call is sent once more with the new session.
 */
export function createMfaApi(client: ApiClient, url: string, confirmIdentity?: ConfirmIdentity) {
  const call = async <T>(run: () => Promise<T>, fallback: string) => {
    try {
      return await run();
    } catch (error) {
      if (!needsReauthentication(error) || !confirmIdentity || !(await confirmIdentity()))
        throw mfaError(error, fallback);
    }
    try {
      return await run();
    } catch (error) {
      throw mfaError(error, fallback);
    }
  };
  return {
    status: (): Promise<MfaStatus> =>
      call(
        () => client.request(url, { body: { action: 'GET_MFA_STATUS' }, schema: mfaStatusResponseSchema }),
        MFA_MESSAGES.statusFailed,
      ),
    /** Only where MFA is optional; a pool that requires it answers 409 with its own text. */
    disable: () =>
      call(
        () => client.request(url, { body: { action: 'DISABLE_MFA' }, schema: disableMfaResponseSchema }),
        MFA_MESSAGES.disableFailed,
      ),
    /** Enrolment for a signed-in user: the secret comes from and returns to our function only. */
    setupDriver: (): MfaSetupDriver => ({
      associate: async () =>
        (
          await call(
            () =>
              client.request(url, { body: { action: 'ASSOCIATE_SOFTWARE_TOKEN' }, schema: associateResponseSchema }),
            MFA_MESSAGES.associateFailed,
          )
        ).secretCode,
      // The function also makes the authenticator the preferred second factor.
      verify: async (mfaCode: string) => {
        await call(
          () =>
            client.request(url, { body: { action: 'VERIFY_SOFTWARE_TOKEN', mfaCode }, schema: verifyResponseSchema }),
          MFA_MESSAGES.verifyFailed,
        );
      },
    }),
    /** The caller's passkeys; adding and removing one need a recent sign-in, as authenticator changes do. */
    passkeys: {
      list: (): Promise<PasskeyList> =>
        call(
          () => client.request(url, { body: { action: 'LIST_PASSKEYS' }, schema: passkeyListResponseSchema }),
          MFA_MESSAGES.passkeysLoadFailed,
        ),
      /** Creation options for navigator.credentials.create (PublicKeyCredentialCreationOptionsJSON). */
      startRegistration: async (): Promise<Record<string, unknown>> =>
        (
          await call(
            () =>
              client.request(url, {
                body: { action: 'START_PASSKEY_REGISTRATION' },
                schema: passkeyRegistrationOptionsSchema,
              }),
            MFA_MESSAGES.passkeyStartFailed,
          )
        ).options,
      /** The browser's new credential; the answer is the list with it and the message to show. */
      completeRegistration: (credential: RegistrationResponseJSON): Promise<PasskeyList> =>
        call(
          () =>
            client.request(url, {
              body: { action: 'COMPLETE_PASSKEY_REGISTRATION', credential },
              schema: passkeyListResponseSchema,
            }),
          MFA_MESSAGES.passkeyAddFailed,
        ),
      remove: (credentialId: string): Promise<PasskeyList> =>
        call(
          () =>
            client.request(url, {
              body: { action: 'DELETE_PASSKEY', credentialId },
              schema: passkeyListResponseSchema,
            }),
          MFA_MESSAGES.passkeyRemoveFailed,
        ),
    },
  };
}

type MfaApi = ReturnType<typeof createMfaApi>;
export type PasskeyApi = MfaApi['passkeys'];

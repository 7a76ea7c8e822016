import {
  AdminForgetDeviceCommand,
  AdminListDevicesCommand,
  AdminSetUserMFAPreferenceCommand,
  AssociateSoftwareTokenCommand,
  type DeviceType,
  SetUserMFAPreferenceCommand,
  VerifySoftwareTokenCommand,
} from '@aws-sdk/client-cognito-identity-provider';
import { ENV } from '#contracts/env.ts';
import {
  DEVICE_FORGOTTEN_MESSAGE,
  type DeviceListResponse,
  MFA_REQUIRED_MESSAGE,
  type MfaConfiguration,
  mfaConfigurationSchema,
  type MfaRequest,
  type MfaStatus,
  REAUTHENTICATION_MESSAGE,
  REAUTHENTICATION_REQUIRED,
  RECENT_SIGN_IN_SECONDS,
  SIGNED_OUT_MESSAGE,
  STEP_UP_ACTIONS,
} from '#contracts/mfa.ts';
import { endAllSessions } from '../shared/auth/end-sessions.ts';
import type { Caller } from '../shared/auth/caller.ts';
import { cognito } from '../shared/aws/cognito.ts';
import { isAwsError } from '../shared/aws/config.ts';
import { requireEnv } from '../shared/env.ts';
import { createLogger } from '../shared/logger.ts';
import {
  BadRequestError,
  ConfigurationError,
  ConflictError,
  HttpError,
  NotFoundError,
  TooManyRequestsError,
  UnauthorizedError,
  UpstreamError,
} from '../shared/errors.ts';

const SOFTWARE_TOKEN_MFA = 'SOFTWARE_TOKEN_MFA';

const logger = createLogger('mfa');

export const DISABLE_MFA_MESSAGE = 'MFA has been disabled successfully';

/** The pool's MFA mode from MFA_CONFIGURATION, which the CDK app sets from the pool's definition. */
export const mfaConfiguration = (): MfaConfiguration => {
  const parsed = mfaConfigurationSchema.safeParse(requireEnv(ENV.mfaConfiguration));
  if (!parsed.success) {
    throw new ConfigurationError([ENV.mfaConfiguration], {
      reason: `${ENV.mfaConfiguration} must be ON, OPTIONAL or OFF`,
    });
  }
  return parsed.data;
};

/**
 * Switching TOTP off where the pool requires MFA would change nothing at sign-in (Cognito keeps
 * a verified software token), so it is refused rather than reported as done.
 */
const refuseWhereRequired = () => {
  if (mfaConfiguration() === 'ON')
    throw new ConflictError(MFA_REQUIRED_MESSAGE, { suggestion: 'Choose Set up a new authenticator.' });
};

/**
 * The caller's own preference, with their access token (a token from a sign-in: Cognito acts on that account alone).
 */
const setTotpPreference = (caller: Caller, failure: string, enabled: boolean, preferred: boolean) =>
  mfaStep(failure, () =>
    cognito.send(
      new SetUserMFAPreferenceCommand({
        AccessToken: caller.accessToken,
        SoftwareTokenMfaSettings: { Enabled: enabled, PreferredMfa: preferred },
      }),
    ),
  );

/** Cognito failures of the caller's own MFA calls, with the spec's "Failed to ..." wording otherwise. */
const mfaStep = async <T>(failure: string, call: () => Promise<T>): Promise<T> => {
  try {
    return await call();
  } catch (error) {
    if (error instanceof HttpError) throw error;
    if (isAwsError(error, 'CodeMismatchException', 'EnableSoftwareTokenMFAException')) {
      throw new BadRequestError('Invalid code. Please check your authenticator app and try again.', {
        fields: ['mfaCode'],
      });
    }
    if (isAwsError(error, 'InvalidParameterException', 'SoftwareTokenMFANotFoundException')) {
      throw new BadRequestError(failure, { reason: error instanceof Error ? error.message : undefined });
    }
    if (isAwsError(error, 'NotAuthorizedException'))
      throw new UnauthorizedError('Your session is no longer valid. Please sign in again.');
    if (isAwsError(error, 'TooManyRequestsException', 'LimitExceededException')) {
      throw new TooManyRequestsError('Too many attempts. Please wait a moment and try again.');
    }
    throw new UpstreamError(failure);
  }
};

/**
 * A stolen access token alone must not replace or remove the authenticator: these actions
 * need a sign-in (password and current code) within the last few minutes. Cognito keeps
 * `auth_time` across refreshes, so a session kept alive by refreshing does not count.
 */
export const requireRecentSignIn = (caller: Caller, nowMs = Date.now()): void => {
  // A token from a refresh has no scope for Cognito's MFA operations, however recent its sign-in.
  if (caller.canCallCognito && Math.floor(nowMs / 1000) - caller.authTime <= RECENT_SIGN_IN_SECONDS) return;
  throw new UnauthorizedError(REAUTHENTICATION_MESSAGE, { reason: REAUTHENTICATION_REQUIRED });
};

/** Cognito's page size limit for AdminListDevices. */
const DEVICE_PAGE = 60;

const attributeOf = (device: DeviceType, name: string) =>
  device.DeviceAttributes?.find((attribute) => attribute.Name === name)?.Value;

/** The caller's devices, every page, through the admin API (the caller's own username only). */
const listDevices = async (caller: Caller): Promise<DeviceListResponse> => {
  const devices: DeviceListResponse['devices'] = [];
  let token: string | undefined;
  do {
    const page = await mfaStep('Failed to list devices', () =>
      cognito.send(
        new AdminListDevicesCommand({
          UserPoolId: requireEnv(ENV.userPoolId),
          Username: caller.username,
          Limit: DEVICE_PAGE,
          PaginationToken: token,
        }),
      ),
    );
    for (const device of page.Devices ?? []) {
      if (!device.DeviceKey) continue;
      devices.push({
        key: device.DeviceKey,
        name: attributeOf(device, 'device_name') ?? 'Unknown device',
        lastUsed: device.DeviceLastAuthenticatedDate?.getTime() ?? 0,
        remembered: attributeOf(device, 'dev:device_remembered_status') === 'remembered',
      });
    }
    token = page.PaginationToken;
  } while (token);
  return { devices };
};

/** Forgets one of the caller's devices; a key of another account is unknown to this one. */
const forgetDevice = async (caller: Caller, deviceKey: string): Promise<{ message: string }> => {
  await mfaStep('Failed to forget the device', async () => {
    try {
      await cognito.send(
        new AdminForgetDeviceCommand({
          UserPoolId: requireEnv(ENV.userPoolId),
          Username: caller.username,
          DeviceKey: deviceKey,
        }),
      );
    } catch (error) {
      if (isAwsError(error, 'ResourceNotFoundException')) throw new NotFoundError('Device not found');
      throw error;
    }
  });
  return { message: DEVICE_FORGOTTEN_MESSAGE };
};

/** MFA state from the account the liveness check already read. */
export const mfaStatusOf = (caller: Caller, configuration: MfaConfiguration): MfaStatus => {
  const enabled = caller.profile.UserMFASettingList?.includes(SOFTWARE_TOKEN_MFA) ?? false;
  const legacyDevices = (caller.profile.MFAOptions ?? []).map((option) => ({
    DeliveryMedium: option.DeliveryMedium ?? 'UNKNOWN',
  }));
  return {
    mfaEnabled: enabled,
    mfaDevices: enabled ? [{ DeliveryMedium: 'SOFTWARE_TOKEN' }, ...legacyDevices] : legacyDevices,
    ...(caller.profile.PreferredMfaSetting ? { preferredMfa: caller.profile.PreferredMfaSetting } : {}),
    mfaRequired: configuration === 'ON',
  };
};

/**
 * GET_MFA_STATUS. In a pool that requires MFA a signed-in caller has passed the TOTP step, so
 * has a verified authenticator, whatever the account's MFA setting list says: Cognito leaves
 * UserMFASettingList and PreferredMfaSetting empty after a first-sign-in set-up (MFA_SETUP)
 * until a preference is set (the TOTP developer guide makes enabling a step after
 * verification, https://docs.aws.amazon.com/cognito/latest/developerguide/user-pool-settings-mfa-totp.html).
 * Where no preference is set, TOTP is set enabled and preferred for the caller's own username
 * (AdminSetUserMFAPreference, which a refreshed token allows too), so Cognito's list says the
 * same. Cognito refusing that because the account has no verified token (removed since the
 * sign-in) is the truth about it; any other failure leaves the preference for the next time.
 */
export const mfaStatus = async (caller: Caller, configuration: MfaConfiguration): Promise<MfaStatus> => {
  const reported = mfaStatusOf(caller, configuration);
  if (configuration !== 'ON' || caller.profile.PreferredMfaSetting) return reported;
  const legacyDevices = reported.mfaDevices.filter((device) => device.DeliveryMedium !== 'SOFTWARE_TOKEN');
  const enabled: MfaStatus = {
    ...reported,
    mfaEnabled: true,
    mfaDevices: [{ DeliveryMedium: 'SOFTWARE_TOKEN' }, ...legacyDevices],
  };
  try {
    await cognito.send(
      new AdminSetUserMFAPreferenceCommand({
        UserPoolId: requireEnv(ENV.userPoolId),
        Username: caller.username,
        SoftwareTokenMfaSettings: { Enabled: true, PreferredMfa: true },
      }),
    );
    return { ...enabled, preferredMfa: SOFTWARE_TOKEN_MFA };
  } catch (error) {
    if (isAwsError(error, 'InvalidParameterException', 'SoftwareTokenMFANotFoundException')) return reported;
    logger.warn('Could not set TOTP as the preferred MFA', {
      errorName: error instanceof Error ? error.name : 'unknown',
    });
    return enabled;
  }
};

/**
 * The caller's own MFA settings, with the caller's access token only (Cognito acts on that
 * account alone); the secret goes back to the browser and nowhere else. Association on an
 * enrolled account replaces its authenticator once the new one is verified.
 */
export const runMfaAction = async (request: MfaRequest, caller: Caller): Promise<unknown> => {
  if (STEP_UP_ACTIONS.has(request.action)) requireRecentSignIn(caller);
  switch (request.action) {
    case 'ASSOCIATE_SOFTWARE_TOKEN': {
      const result = await mfaStep('Failed to associate software token', () =>
        cognito.send(new AssociateSoftwareTokenCommand({ AccessToken: caller.accessToken })),
      );
      if (!result.SecretCode) throw new UpstreamError('Failed to associate software token');
      return { secretCode: result.SecretCode };
    }

    case 'VERIFY_SOFTWARE_TOKEN': {
      const result = await mfaStep('Failed to verify software token', () =>
        cognito.send(
          new VerifySoftwareTokenCommand({
            AccessToken: caller.accessToken,
            UserCode: request.mfaCode,
            FriendlyDeviceName: request.friendlyDeviceName,
          }),
        ),
      );
      if (result.Status !== 'SUCCESS')
        throw new BadRequestError('Failed to verify software token', { fields: ['mfaCode'] });
      await setTotpPreference(caller, 'Failed to set MFA preference', true, true);
      return { status: 'SUCCESS', message: 'MFA setup completed successfully!' };
    }

    case 'SET_MFA_PREFERENCE': {
      if (!request.enabled) refuseWhereRequired();
      await setTotpPreference(
        caller,
        'Failed to set MFA preference',
        request.enabled,
        request.preferred ?? request.enabled,
      );
      return { message: 'MFA preference updated successfully' };
    }

    case 'GET_MFA_STATUS':
      return mfaStatus(caller, mfaConfiguration());

    case 'DISABLE_MFA':
      refuseWhereRequired();
      await setTotpPreference(caller, 'Failed to disable MFA', false, false);
      return { message: DISABLE_MFA_MESSAGE };

    case 'SIGN_OUT_EVERYWHERE':
      await mfaStep('Failed to sign out', () => endAllSessions(requireEnv(ENV.userPoolId), caller.username));
      return { message: SIGNED_OUT_MESSAGE };

    case 'LIST_DEVICES':
      return listDevices(caller);

    case 'FORGET_DEVICE':
      return forgetDevice(caller, request.deviceKey);

    case 'LIST_PASSKEYS':
      return (await import('./passkeys.ts')).listPasskeys(caller);

    case 'START_PASSKEY_REGISTRATION':
      return (await import('./passkeys.ts')).startRegistration(caller);

    case 'COMPLETE_PASSKEY_REGISTRATION':
      return (await import('./passkeys.ts')).completeRegistration(caller, request.credential);

    case 'DELETE_PASSKEY':
      return (await import('./passkeys.ts')).deletePasskey(caller, request.credentialId);

    case 'PASSKEY_USED':
      return (await import('./passkeys.ts')).notePasskeyUse(caller, request.credentialId);
  }
};

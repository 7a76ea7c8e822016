import {
  AdminSetUserMFAPreferenceCommand,
  AssociateSoftwareTokenCommand,
  SetUserMFAPreferenceCommand,
  VerifySoftwareTokenCommand,
} from '@aws-sdk/client-cognito-identity-provider';
import { ENV } from '../../contracts/env.ts';
import type { MfaRequest, MfaStatus } from '../../contracts/mfa.ts';
import type { Caller } from '../shared/auth/caller.ts';
import { cognito } from '../shared/aws/cognito.ts';
import { isAwsError } from '../shared/aws/config.ts';
import { requireEnv } from '../shared/env.ts';
import { BadRequestError, HttpError, TooManyRequestsError, UnauthorizedError, UpstreamError } from '../shared/errors.ts';

const SOFTWARE_TOKEN_MFA = 'SOFTWARE_TOKEN_MFA';

export const DISABLE_MFA_MESSAGE =
  'MFA has been disabled successfully. Your account requires MFA, so you will set up a new authenticator app at your next sign-in.';

/** Cognito failures of the caller's own MFA calls, with the spec's "Failed to ..." wording otherwise. */
const mfaStep = async <T>(failure: string, call: () => Promise<T>): Promise<T> => {
  try {
    return await call();
  } catch (error) {
    if (error instanceof HttpError) throw error;
    if (isAwsError(error, 'CodeMismatchException', 'EnableSoftwareTokenMFAException')) {
      throw new BadRequestError('Invalid code. Please check your authenticator app and try again.', { fields: ['mfaCode'] });
    }
    if (isAwsError(error, 'InvalidParameterException', 'SoftwareTokenMFANotFoundException')) {
      throw new BadRequestError(failure, { reason: error instanceof Error ? error.message : undefined });
    }
    if (isAwsError(error, 'NotAuthorizedException')) throw new UnauthorizedError('Your session is no longer valid. Please sign in again.');
    if (isAwsError(error, 'TooManyRequestsException', 'LimitExceededException')) {
      throw new TooManyRequestsError('Too many attempts. Please wait a moment and try again.');
    }
    throw new UpstreamError(failure);
  }
};

/** MFA state from the GetUser answer the liveness check already fetched. */
export const mfaStatusOf = (caller: Caller): MfaStatus => {
  const enabled = caller.profile.UserMFASettingList?.includes(SOFTWARE_TOKEN_MFA) ?? false;
  const legacyDevices = (caller.profile.MFAOptions ?? []).map((option) => ({ DeliveryMedium: option.DeliveryMedium ?? 'UNKNOWN' }));
  return {
    mfaEnabled: enabled,
    mfaDevices: enabled ? [{ DeliveryMedium: 'SOFTWARE_TOKEN' }, ...legacyDevices] : legacyDevices,
    ...(caller.profile.PreferredMfaSetting ? { preferredMfa: caller.profile.PreferredMfaSetting } : {}),
  };
};

/**
 * The caller's own MFA settings. Association, verification and preference use the caller's
 * access token (Cognito acts on that account only); the secret goes back to the browser and
 * nowhere else.
 */
export const runMfaAction = async (request: MfaRequest, caller: Caller): Promise<unknown> => {
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
      if (result.Status !== 'SUCCESS') throw new BadRequestError('Failed to verify software token', { fields: ['mfaCode'] });
      await mfaStep('Failed to set MFA preference', () =>
        cognito.send(
          new SetUserMFAPreferenceCommand({
            AccessToken: caller.accessToken,
            SoftwareTokenMfaSettings: { Enabled: true, PreferredMfa: true },
          }),
        ),
      );
      return { status: 'SUCCESS', message: 'MFA setup completed successfully!' };
    }

    case 'SET_MFA_PREFERENCE': {
      await mfaStep('Failed to set MFA preference', () =>
        cognito.send(
          new SetUserMFAPreferenceCommand({
            AccessToken: caller.accessToken,
            SoftwareTokenMfaSettings: { Enabled: request.enabled, PreferredMfa: request.preferred ?? request.enabled },
          }),
        ),
      );
      return { message: 'MFA preference updated successfully' };
    }

    case 'GET_MFA_STATUS':
      return mfaStatusOf(caller);

    case 'DISABLE_MFA':
      // The admin call, because Cognito refuses a user switching off MFA in a pool that requires it.
      await mfaStep('Failed to disable MFA', () =>
        cognito.send(
          new AdminSetUserMFAPreferenceCommand({
            UserPoolId: requireEnv(ENV.userPoolId),
            Username: caller.username,
            SoftwareTokenMfaSettings: { Enabled: false, PreferredMfa: false },
          }),
        ),
      );
      return { message: DISABLE_MFA_MESSAGE, setupRequiredAtNextSignIn: true };
  }
};

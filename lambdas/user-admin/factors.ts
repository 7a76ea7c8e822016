import { AdminGetUserCommand, AdminSetUserMFAPreferenceCommand } from '@aws-sdk/client-cognito-identity-provider';
import { ENV } from '#contracts/env.ts';
import type { UserFactors } from '#contracts/user-admin.ts';
import { cognito } from '../shared/aws/cognito.ts';
import { isAwsError } from '../shared/aws/config.ts';
import { readPasskeys, recordPasskeyReset } from '../shared/data/passkeys.ts';
import { requireEnv } from '../shared/env.ts';
import { cognitoStep } from './cognito-failure.ts';

const poolId = () => requireEnv(ENV.userPoolId);

/**
 * An account's factors: the MFA methods Cognito lists for it (AdminGetUser's UserMFASettingList)
 * and its passkeys as the portal recorded them (Cognito lists passkeys only to their owner).
 */
export const userFactors = async (email: string): Promise<UserFactors> => {
  const [user, record] = await Promise.all([
    cognitoStep('Failed to look up the user', email, () =>
      cognito.send(new AdminGetUserCommand({ UserPoolId: poolId(), Username: email })),
    ),
    readPasskeys(email),
  ]);
  const methods = user.UserMFASettingList ?? [];
  return {
    authenticator: methods.includes('SOFTWARE_TOKEN_MFA'),
    passkeyMfa: methods.includes('WEB_AUTHN'),
    passkeys: record.passkeys,
  };
};

/**
 * The passkey half of Reset MFA. No administrator call deletes another user's passkeys, so:
 * passkeys stop counting as the account's MFA at once (AdminSetUserMFAPreference), which in a
 * pool that requires MFA leaves a passkey a first factor at most, followed by the set-up of a
 * new authenticator; the portal's record forgets them, and the MFA function deletes them from
 * Cognito with the user's next token that may (lambdas/mfa/passkeys.ts).
 */
export const resetPasskeys = async (email: string, at = Date.now()): Promise<void> => {
  await cognitoStep('Failed to reset MFA', email, async () => {
    try {
      await cognito.send(
        new AdminSetUserMFAPreferenceCommand({
          UserPoolId: poolId(),
          Username: email,
          WebAuthnMfaSettings: { Enabled: false },
        }),
      );
    } catch (error) {
      // A pool without passkeys refuses the setting: there is nothing to turn off.
      if (!isAwsError(error, 'InvalidParameterException')) throw error;
    }
  });
  await recordPasskeyReset(email, at);
};

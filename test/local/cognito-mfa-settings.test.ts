import {
  AdminGetUserCommand,
  AdminSetUserMFAPreferenceCommand,
  GetUserCommand,
} from '@aws-sdk/client-cognito-identity-provider';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { authenticate, completeMfaSetup, userFor } from './support/cognito-client.ts';
import { createUser, startHarness, type CognitoHarness } from './support/cognito-harness.ts';

/**
 * The MFA fields of AdminGetUser and GetUser after a first-sign-in authenticator set-up
 * (MFA_SETUP) that set no preference, which the MFA function's GET_MFA_STATUS meets. The TOTP
 * developer guide makes enabling TOTP a step after verification ("Next, you can enable TOTP MFA
 * for your user or set TOTP as the preferred MFA method for your user",
 * https://docs.aws.amazon.com/cognito/latest/developerguide/user-pool-settings-mfa-totp.html);
 * AdminGetUser's UserMFASettingList lists "the MFA options that are activated for the user"
 * (https://docs.aws.amazon.com/cognito-user-identity-pools/latest/APIReference/API_AdminGetUser.html),
 * and AdminSetUserMFAPreference activates them
 * (https://docs.aws.amazon.com/cognito-user-identity-pools/latest/APIReference/API_AdminSetUserMFAPreference.html).
 */
let harness: CognitoHarness;
beforeAll(async () => {
  harness = await startHarness();
});
afterAll(() => harness.close());

const EMAIL = 'set.up.at.sign-in@example.com';
const PASSWORD = 'Set#Up1234ab';

describe('MFA settings after MFA_SETUP without a preference', () => {
  it('reports no UserMFASettingList or PreferredMfaSetting until a preference is set, though sign-in asks for the code', async () => {
    const username = await createUser(harness, EMAIL, PASSWORD);
    const user = userFor(harness.pool, EMAIL);
    expect(await authenticate(user, EMAIL, PASSWORD)).toMatchObject({ step: 'MFA_SETUP' });
    const { session } = await completeMfaSetup(user, (secret) => harness.totp(secret));
    const mfaFields = (answer: { UserMFASettingList?: string[]; PreferredMfaSetting?: string }) => ({
      list: answer.UserMFASettingList,
      preferred: answer.PreferredMfaSetting,
    });
    const adminView = () =>
      harness.admin.send(new AdminGetUserCommand({ UserPoolId: harness.emulator.userPoolId, Username: username }));
    const ownView = () =>
      harness.admin.send(new GetUserCommand({ AccessToken: session.getAccessToken().getJwtToken() }));

    expect(mfaFields(await adminView())).toEqual({ list: undefined, preferred: undefined });
    expect(mfaFields(await ownView())).toEqual({ list: undefined, preferred: undefined });
    // The pool requires MFA: the verified authenticator is asked for all the same.
    harness.advance(30_000);
    expect(await authenticate(userFor(harness.pool, EMAIL), EMAIL, PASSWORD)).toMatchObject({
      step: 'SOFTWARE_TOKEN_MFA',
    });

    // What GET_MFA_STATUS does where no preference is set.
    await harness.admin.send(
      new AdminSetUserMFAPreferenceCommand({
        UserPoolId: harness.emulator.userPoolId,
        Username: username,
        SoftwareTokenMfaSettings: { Enabled: true, PreferredMfa: true },
      }),
    );
    expect(mfaFields(await adminView())).toEqual({ list: ['SOFTWARE_TOKEN_MFA'], preferred: 'SOFTWARE_TOKEN_MFA' });
    expect(mfaFields(await ownView())).toEqual({ list: ['SOFTWARE_TOKEN_MFA'], preferred: 'SOFTWARE_TOKEN_MFA' });
  });
});

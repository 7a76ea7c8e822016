import {
  AdminForgetDeviceCommand,
  AdminListDevicesCommand,
  ForgetDeviceCommand,
  GetDeviceCommand,
  GetTokensFromRefreshTokenCommand,
  InitiateAuthCommand,
  ListDevicesCommand,
  UpdateDeviceStatusCommand,
} from '@aws-sdk/client-cognito-identity-provider';
import { CognitoUser, type CognitoUserSession, type ICognitoStorage } from 'amazon-cognito-identity-js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { memoryStorage } from '#clients/cognito.ts';
import {
  associateSoftwareToken,
  authenticate,
  sendCodeOnDevice,
  signInOnDevice,
  userFor,
  verifySoftwareToken,
} from '../local/support/cognito-client.ts';
import { startCognitoTarget, type CognitoTarget } from './support/cognito-target.ts';

/**
 * Remembered devices in a pool that tracks them "only on user prompt" (lib/auth.ts with
 * rememberDevices), each test named after the API reference page it follows. Sign-ins go
 * through amazon-cognito-identity-js, as the portal's do, so the device SRP is the library's.
 */

const PASSWORD = 'Conform#ance1';
const SLOW = 240_000;

let target: CognitoTarget;
beforeAll(async () => {
  target = await startCognitoTarget({ rememberDevices: true });
  // The first start may synthesize the app for the functions' role policies (support/front-door.ts).
}, 300_000);
afterAll(() => target?.close());

/** UpdateDeviceStatus, authorized by an access token of the device's user. */
const setDeviceStatus = (accessToken: string, deviceKey: string, status: 'remembered' | 'not_remembered') =>
  target.admin.send(
    new UpdateDeviceStatusCommand({ AccessToken: accessToken, DeviceKey: deviceKey, DeviceRememberedStatus: status }),
  );

/** A user with an authenticator, and one browser's storage (its device secret lives there). */
async function enrolled(label: string) {
  const email = target.email(label);
  await target.createUser(email, PASSWORD);
  const setup = userFor(target.pool(), email);
  expect(await authenticate(setup, email, PASSWORD)).toEqual({ step: 'MFA_SETUP' });
  const secret = await associateSoftwareToken(setup);
  await verifySoftwareToken(setup, await target.totp(secret));
  const browser = memoryStorage();
  const userIn = (storage: ICognitoStorage) =>
    new CognitoUser({ Username: email, Pool: target.pool(), Storage: storage });
  const user = () => userIn(browser);
  const signIn = (as: CognitoUser) => signInOnDevice(as, email, PASSWORD);
  /** A sign-in that asks for the code, answered with one. */
  const signInWithCode = async (as: CognitoUser) => {
    expect(await signIn(as)).toEqual({ step: 'CODE' });
    const code = await target.totp(secret);
    const done = await sendCodeOnDevice(as, code);
    if (done.step !== 'DONE') throw new Error(`expected tokens, got ${done.step}`);
    return done;
  };
  const withCode = async () => {
    const as = user();
    const done = await signInWithCode(as);
    // The library keeps the confirmed device's key in the browser's storage.
    const deviceKey =
      browser.getItem(`CognitoIdentityServiceProvider.${target.clientId}.${as.getUsername()}.deviceKey`) ?? '';
    return { ...done, user: as, deviceKey, accessToken: done.session.getAccessToken().getJwtToken() };
  };
  /** A sign-in with the code in another browser: its own storage, so its own device. */
  const elsewhere = async () => (await signInWithCode(userIn(memoryStorage()))).session.getAccessToken().getJwtToken();
  return { email, user, signIn, withCode, elsewhere };
}

describe('remembered devices (device tracking, only remembered on user prompt)', () => {
  // https://docs.aws.amazon.com/cognito-user-identity-pools/latest/APIReference/API_ConfirmDevice.html:
  // "UserConfirmationNecessary: When true, your user must confirm that they want to remember the device."
  it(
    'ConfirmDevice: a device from a sign-in with a code is confirmed with UserConfirmationNecessary true',
    async () => {
      const account = await enrolled('confirm-device');
      const first = await account.withCode();
      expect(first.confirmationNecessary).toBe(true);
      expect(first.deviceKey).toMatch(/^[\w-]+_[0-9a-f-]+$/);
    },
    SLOW,
  );

  // https://docs.aws.amazon.com/cognito-user-identity-pools/latest/APIReference/API_UpdateDeviceStatus.html
  // and API_RespondToAuthChallenge.html (DEVICE_SRP_AUTH, DEVICE_PASSWORD_VERIFIER).
  it(
    'UpdateDeviceStatus: a remembered device answers DEVICE_SRP_AUTH in place of the code; not_remembered asks for it again',
    async () => {
      const account = await enrolled('update-device-status');
      const first = await account.withCode();
      await setDeviceStatus(first.accessToken, first.deviceKey, 'remembered');
      const skipped = await account.signIn(account.user());
      expect(skipped.step).toBe('DONE');
      const accessToken = (skipped as { session: CognitoUserSession }).session.getAccessToken().getJwtToken();
      await setDeviceStatus(accessToken, first.deviceKey, 'not_remembered');
      expect(await account.signIn(account.user())).toEqual({ step: 'CODE' });
    },
    SLOW,
  );

  // https://docs.aws.amazon.com/cognito-user-identity-pools/latest/APIReference/API_UpdateDeviceStatus.html:
  // authorized by an access token of the user alone, for any of the user's devices.
  it(
    'UpdateDeviceStatus: the access token of a sign-in elsewhere marks a device confirmed without remembering as remembered',
    async () => {
      const account = await enrolled('device-status-elsewhere');
      const first = await account.withCode();
      expect(first.confirmationNecessary).toBe(true);
      const accessToken = await account.elsewhere();
      await setDeviceStatus(accessToken, first.deviceKey, 'remembered');
      expect((await account.signIn(account.user())).step).toBe('DONE');
    },
    SLOW,
  );

  // https://docs.aws.amazon.com/cognito-user-identity-pools/latest/APIReference/API_ListDevices.html,
  // API_GetDevice.html and API_DeviceType.html.
  it(
    'ListDevices: lists the confirmed device with its remembered status; GetDevice returns it',
    async () => {
      const account = await enrolled('list-devices');
      const first = await account.withCode();
      const listed = await target.admin.send(new ListDevicesCommand({ AccessToken: first.accessToken, Limit: 10 }));
      expect(listed.Devices?.map((device) => device.DeviceKey)).toEqual([first.deviceKey]);
      expect(listed.Devices![0]!.DeviceAttributes).toContainEqual({
        Name: 'dev:device_remembered_status',
        Value: 'not_remembered',
      });
      const got = await target.admin.send(
        new GetDeviceCommand({ AccessToken: first.accessToken, DeviceKey: first.deviceKey }),
      );
      expect(got.Device?.DeviceKey).toBe(first.deviceKey);
      expect(got.Device?.DeviceCreateDate).toBeInstanceOf(Date);
    },
    SLOW,
  );

  // https://docs.aws.amazon.com/cognito-user-identity-pools/latest/APIReference/API_ForgetDevice.html
  it(
    'ForgetDevice: a forgotten device is gone (ResourceNotFoundException) and its sign-ins need the code',
    async () => {
      const account = await enrolled('forget-device');
      const first = await account.withCode();
      await setDeviceStatus(first.accessToken, first.deviceKey, 'remembered');
      await target.admin.send(new ForgetDeviceCommand({ AccessToken: first.accessToken, DeviceKey: first.deviceKey }));
      await expect(
        target.admin.send(new GetDeviceCommand({ AccessToken: first.accessToken, DeviceKey: first.deviceKey })),
      ).rejects.toMatchObject({
        name: 'ResourceNotFoundException',
      });
      expect(await account.signIn(account.user())).toEqual({ step: 'CODE' });
    },
    SLOW,
  );

  // https://docs.aws.amazon.com/cognito-user-identity-pools/latest/APIReference/API_GetTokensFromRefreshToken.html
  // (DeviceKey: "You must provide the confirmed device key in this request if device remembering
  // is enabled"), API_InitiateAuth.html (REFRESH_TOKEN_AUTH: DEVICE_KEY), the access token's
  // device_key (https://docs.aws.amazon.com/cognito/latest/developerguide/amazon-cognito-user-pools-using-the-access-token.html)
  // and the reports of "Invalid Refresh Token" after ForgetDevice (amplify-js #2962,
  // aws-sdk-java #2841, aws-sdk-net-extensions-cognito #85).
  it(
    'GetTokensFromRefreshToken / REFRESH_TOKEN_AUTH: a refresh names the confirmed device of the sign-in; without it, or once it is forgotten, "Invalid Refresh Token"',
    async () => {
      const account = await enrolled('device-bound-refresh');
      const first = await account.withCode();
      const claims = JSON.parse(Buffer.from(first.accessToken.split('.')[1] ?? '', 'base64url').toString()) as Record<
        string,
        unknown
      >;
      expect(claims.device_key).toBe(first.deviceKey);
      const RefreshToken = first.session.getRefreshToken().getToken();
      const refresh = (deviceKey?: string) =>
        target.admin.send(
          new InitiateAuthCommand({
            AuthFlow: 'REFRESH_TOKEN_AUTH',
            ClientId: target.clientId,
            AuthParameters: { REFRESH_TOKEN: RefreshToken, ...(deviceKey ? { DEVICE_KEY: deviceKey } : {}) },
          }),
        );
      expect((await refresh(first.deviceKey)).AuthenticationResult?.AccessToken).toBeTruthy();
      expect(
        (
          await target.admin.send(
            new GetTokensFromRefreshTokenCommand({
              ClientId: target.clientId,
              RefreshToken,
              DeviceKey: first.deviceKey,
            }),
          )
        ).AuthenticationResult?.AccessToken,
      ).toBeTruthy();
      const refused = { name: 'NotAuthorizedException', message: 'Invalid Refresh Token' };
      await expect(refresh()).rejects.toMatchObject(refused);
      await target.admin.send(new ForgetDeviceCommand({ AccessToken: first.accessToken, DeviceKey: first.deviceKey }));
      await expect(refresh(first.deviceKey)).rejects.toMatchObject(refused);
      await expect(
        target.admin.send(
          new GetTokensFromRefreshTokenCommand({ ClientId: target.clientId, RefreshToken, DeviceKey: first.deviceKey }),
        ),
      ).rejects.toMatchObject(refused);
    },
    SLOW,
  );

  // https://docs.aws.amazon.com/cognito-user-identity-pools/latest/APIReference/API_AdminListDevices.html
  // and API_AdminForgetDevice.html
  it(
    'AdminForgetDevice: an administrator lists and forgets a remembered device; the next sign-in needs the code',
    async () => {
      const account = await enrolled('admin-forget-device');
      const first = await account.withCode();
      await setDeviceStatus(first.accessToken, first.deviceKey, 'remembered');
      const poolAndUser = { UserPoolId: target.userPoolId, Username: account.email };
      const listed = await target.admin.send(new AdminListDevicesCommand(poolAndUser));
      expect(listed.Devices?.map((device) => device.DeviceKey)).toEqual([first.deviceKey]);
      await target.admin.send(new AdminForgetDeviceCommand({ ...poolAndUser, DeviceKey: first.deviceKey }));
      expect((await target.admin.send(new AdminListDevicesCommand(poolAndUser))).Devices ?? []).toEqual([]);
      expect(await account.signIn(account.user())).toEqual({ step: 'CODE' });
    },
    SLOW,
  );
});

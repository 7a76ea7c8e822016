import {
  AdminDisableUserCommand,
  AdminEnableUserCommand,
  AdminForgetDeviceCommand,
  AdminListDevicesCommand,
  AdminUserGlobalSignOutCommand,
  ConfirmDeviceCommand,
  ForgetDeviceCommand,
  GetTokensFromRefreshTokenCommand,
  InitiateAuthCommand,
  UpdateDeviceStatusCommand,
} from '@aws-sdk/client-cognito-identity-provider';
import { CognitoUser, type CognitoUserSession } from 'amazon-cognito-identity-js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { memoryStorage } from '#clients/cognito.ts';
import { createEnrolledUser, startHarness, type CognitoHarness } from './support/cognito-harness.ts';
import { sendCodeOnDevice, signInOnDevice } from './support/cognito-client.ts';

/**
 * Remembered devices through the unmodified amazon-cognito-identity-js, as the SPA drives
 * them: NewDeviceMetadata, ConfirmDevice, UpdateDeviceStatus, then DEVICE_SRP_AUTH and
 * DEVICE_PASSWORD_VERIFIER in place of the code.
 */

let harness: CognitoHarness;
beforeAll(async () => {
  harness = await startHarness({
    deviceTracking: { challengeRequiredOnNewDevice: true, deviceOnlyRememberedOnUserPrompt: true },
  });
});
afterAll(() => harness.close());

/** One browser: its storage keeps the tokens and the device secret between sign-ins. */
function browser() {
  const storage = memoryStorage();
  const user = (email: string) => new CognitoUser({ Username: email, Pool: harness.pool, Storage: storage });
  return { storage, user };
}

const remember = (user: CognitoUser) =>
  new Promise<void>((resolve, reject) =>
    user.setDeviceStatusRemembered({ onSuccess: () => resolve(), onFailure: reject }),
  );
const listDevices = (user: CognitoUser) =>
  new Promise<{ Devices: { DeviceKey: string; DeviceAttributes: { Name: string; Value: string }[] }[] }>(
    (resolve, reject) =>
      user.listDevices(10, null, { onSuccess: resolve as (data: unknown) => void, onFailure: reject }),
  );
const forget = (user: CognitoUser, key: string) =>
  new Promise<void>((resolve, reject) =>
    user.forgetSpecificDevice(key, { onSuccess: () => resolve(), onFailure: reject }),
  );

async function signInWithCode(user: CognitoUser, email: string, password: string, secret: string) {
  expect(await signInOnDevice(user, email, password)).toEqual({ step: 'CODE' });
  const done = await sendCodeOnDevice(user, harness.totp(secret));
  harness.advance(30_000);
  if (done.step !== 'DONE') throw new Error(`expected DONE, got ${done.step}`);
  return done;
}

describe('device tracking, only remembered on user prompt', () => {
  it('confirms a new device after a sign-in with a code and asks the user whether to remember it', async () => {
    const { secret } = await createEnrolledUser(harness, 'device.prompt@example.com', 'Device#Prompt1');
    const laptop = browser();
    const user = laptop.user('device.prompt@example.com');
    const done = await signInWithCode(user, 'device.prompt@example.com', 'Device#Prompt1', secret);
    expect(done.confirmationNecessary).toBe(true);
    const keys = [...laptop.storage.keys()].filter((key) => key.endsWith('.deviceKey'));
    expect(keys).toHaveLength(1);
    expect(laptop.storage.getItem(keys[0]!)).toMatch(/^us-east-2_[0-9a-f-]{36}$/);

    // Confirmed but not remembered: the next sign-in from it still needs the code.
    const again = laptop.user('device.prompt@example.com');
    expect(await signInOnDevice(again, 'device.prompt@example.com', 'Device#Prompt1')).toEqual({ step: 'CODE' });
    const second = await sendCodeOnDevice(again, harness.totp(secret));
    harness.advance(30_000);
    expect(second).toMatchObject({ step: 'DONE', confirmationNecessary: false });
    const { Devices } = await listDevices(again);
    expect(Devices).toHaveLength(1);
    expect(Devices[0]!.DeviceAttributes).toContainEqual({
      Name: 'dev:device_remembered_status',
      Value: 'not_remembered',
    });
  });

  // As on AWS: UpdateDeviceStatus is authorized by an access token of the user alone
  // (https://docs.aws.amazon.com/cognito-user-identity-pools/latest/APIReference/API_UpdateDeviceStatus.html,
  // https://docs.aws.amazon.com/cognito/latest/developerguide/amazon-cognito-user-pools-device-tracking.html).
  it('lets any access token of the user remember a device confirmed without it; only the browser with its secret then skips the code', async () => {
    const { secret } = await createEnrolledUser(harness, 'device.status@example.com', 'Device#Status1');
    const laptop = browser();
    const onLaptop = await signInWithCode(
      laptop.user('device.status@example.com'),
      'device.status@example.com',
      'Device#Status1',
      secret,
    );
    expect(onLaptop.confirmationNecessary).toBe(true);
    const laptopKey = laptop.storage.getItem([...laptop.storage.keys()].find((key) => key.endsWith('.deviceKey'))!)!;
    const phone = browser();
    const onPhone = await signInWithCode(
      phone.user('device.status@example.com'),
      'device.status@example.com',
      'Device#Status1',
      secret,
    );
    const AccessToken = onPhone.session.getAccessToken().getJwtToken();

    await harness.admin.send(
      new UpdateDeviceStatusCommand({ AccessToken, DeviceKey: laptopKey, DeviceRememberedStatus: 'remembered' }),
    );
    expect(
      (await signInOnDevice(laptop.user('device.status@example.com'), 'device.status@example.com', 'Device#Status1'))
        .step,
    ).toBe('DONE');
    expect(
      await signInOnDevice(phone.user('device.status@example.com'), 'device.status@example.com', 'Device#Status1'),
    ).toEqual({ step: 'CODE' });

    await harness.admin.send(
      new UpdateDeviceStatusCommand({ AccessToken, DeviceKey: laptopKey, DeviceRememberedStatus: 'not_remembered' }),
    );
    expect(
      await signInOnDevice(laptop.user('device.status@example.com'), 'device.status@example.com', 'Device#Status1'),
    ).toEqual({ step: 'CODE' });
  });

  it('skips the code on a remembered device, never the password', async () => {
    const { secret } = await createEnrolledUser(harness, 'device.remembered@example.com', 'Device#Remember1');
    const laptop = browser();
    const first = laptop.user('device.remembered@example.com');
    await signInWithCode(first, 'device.remembered@example.com', 'Device#Remember1', secret);
    await remember(first);

    const next = laptop.user('device.remembered@example.com');
    const done = await signInOnDevice(next, 'device.remembered@example.com', 'Device#Remember1');
    expect(done.step).toBe('DONE');
    await expect(
      signInOnDevice(laptop.user('device.remembered@example.com'), 'device.remembered@example.com', 'Wrong#Pass123'),
    ).rejects.toMatchObject({
      code: 'NotAuthorizedException',
      message: 'Incorrect username or password.',
    });

    // Another browser has no device secret: it is asked for the code.
    const phone = browser().user('device.remembered@example.com');
    expect(await signInOnDevice(phone, 'device.remembered@example.com', 'Device#Remember1')).toEqual({ step: 'CODE' });
  });

  it('asks for the code again once the device is forgotten, and the library drops the stale key', async () => {
    const { secret } = await createEnrolledUser(harness, 'device.forget@example.com', 'Device#Forget1');
    const laptop = browser();
    const first = laptop.user('device.forget@example.com');
    await signInWithCode(first, 'device.forget@example.com', 'Device#Forget1', secret);
    await remember(first);
    const { Devices } = await listDevices(first);
    await forget(first, Devices[0]!.DeviceKey);
    expect((await listDevices(first)).Devices).toEqual([]);

    // The stored key names a device that no longer exists: the library clears it and retries.
    const next = laptop.user('device.forget@example.com');
    expect(await signInOnDevice(next, 'device.forget@example.com', 'Device#Forget1')).toEqual({ step: 'CODE' });
    const done = await sendCodeOnDevice(next, harness.totp(secret));
    harness.advance(30_000);
    expect(done).toMatchObject({ step: 'DONE', confirmationNecessary: true });
  });

  it('lists and forgets devices as an administrator', async () => {
    const { secret } = await createEnrolledUser(harness, 'device.admin@example.com', 'Device#Admin12');
    const laptop = browser();
    const first = laptop.user('device.admin@example.com');
    await signInWithCode(first, 'device.admin@example.com', 'Device#Admin12', secret);
    await remember(first);
    const poolAndUser = { UserPoolId: harness.emulator.userPoolId, Username: 'device.admin@example.com' };
    const listed = await harness.admin.send(new AdminListDevicesCommand(poolAndUser));
    expect(listed.Devices).toHaveLength(1);
    expect(listed.Devices![0]!.DeviceLastAuthenticatedDate).toBeInstanceOf(Date);
    await harness.admin.send(
      new AdminForgetDeviceCommand({ ...poolAndUser, DeviceKey: listed.Devices![0]!.DeviceKey! }),
    );
    expect((await harness.admin.send(new AdminListDevicesCommand(poolAndUser))).Devices).toEqual([]);
    await expect(
      harness.admin.send(new AdminForgetDeviceCommand({ ...poolAndUser, DeviceKey: listed.Devices![0]!.DeviceKey! })),
    ).rejects.toMatchObject({ name: 'ResourceNotFoundException', message: 'Device does not exist.' });
    expect(
      await signInOnDevice(laptop.user('device.admin@example.com'), 'device.admin@example.com', 'Device#Admin12'),
    ).toEqual({ step: 'CODE' });
  });

  it('refuses a disabled account on a remembered device, and a global sign-out does not skip the password', async () => {
    const { secret } = await createEnrolledUser(harness, 'device.disabled@example.com', 'Device#Disable1');
    const laptop = browser();
    const first = laptop.user('device.disabled@example.com');
    await signInWithCode(first, 'device.disabled@example.com', 'Device#Disable1', secret);
    await remember(first);
    const poolAndUser = { UserPoolId: harness.emulator.userPoolId, Username: 'device.disabled@example.com' };
    await harness.admin.send(new AdminUserGlobalSignOutCommand(poolAndUser));
    await expect(
      signInOnDevice(laptop.user('device.disabled@example.com'), 'device.disabled@example.com', 'Wrong#Pass123'),
    ).rejects.toMatchObject({
      code: 'NotAuthorizedException',
    });
    await harness.admin.send(new AdminDisableUserCommand(poolAndUser));
    await expect(
      signInOnDevice(laptop.user('device.disabled@example.com'), 'device.disabled@example.com', 'Device#Disable1'),
    ).rejects.toMatchObject({
      code: 'NotAuthorizedException',
      message: 'User is disabled.',
    });
    await harness.admin.send(new AdminEnableUserCommand(poolAndUser));
  });

  it('refuses device operations with a bad key or without a session', async () => {
    const { secret } = await createEnrolledUser(harness, 'device.errors@example.com', 'Device#Errors1');
    const user = browser().user('device.errors@example.com');
    await signInWithCode(user, 'device.errors@example.com', 'Device#Errors1', secret);
    await expect(forget(user, 'us-east-2_00000000-0000-0000-0000-000000000000')).rejects.toMatchObject({
      code: 'ResourceNotFoundException',
    });
    await expect(forget(user, 'not a key')).rejects.toMatchObject({ code: 'InvalidParameterException' });
    // The device this sign-in confirmed cannot be confirmed again with another secret.
    const accessToken = user.getSignInUserSession()!.getAccessToken().getJwtToken();
    const deviceKey = (await listDevices(user)).Devices[0]!.DeviceKey;
    await expect(
      harness.admin.send(
        new ConfirmDeviceCommand({
          AccessToken: accessToken,
          DeviceKey: deviceKey,
          DeviceSecretVerifierConfig: { PasswordVerifier: 'AAAA', Salt: 'AAAA' },
        }),
      ),
    ).rejects.toMatchObject({ name: 'NotAuthorizedException' });
  });
});

const claimsOf = (jwt: string) =>
  JSON.parse(Buffer.from(jwt.split('.')[1] ?? '', 'base64url').toString()) as Record<string, unknown>;
const storedDeviceKey = (storage: ReturnType<typeof memoryStorage>) =>
  storage.getItem([...storage.keys()].find((key) => key.endsWith('.deviceKey')) ?? '') ?? undefined;
const refreshWith = (refreshToken: string, deviceKey?: string) =>
  harness.admin.send(
    new InitiateAuthCommand({
      AuthFlow: 'REFRESH_TOKEN_AUTH',
      ClientId: harness.emulator.clientId,
      AuthParameters: { REFRESH_TOKEN: refreshToken, ...(deviceKey !== undefined ? { DEVICE_KEY: deviceKey } : {}) },
    }),
  );
const tokensWith = (refreshToken: string, deviceKey?: string) =>
  harness.admin.send(
    new GetTokensFromRefreshTokenCommand({
      RefreshToken: refreshToken,
      ClientId: harness.emulator.clientId,
      ...(deviceKey !== undefined ? { DeviceKey: deviceKey } : {}),
    }),
  );
const INVALID_REFRESH = { name: 'NotAuthorizedException', message: 'Invalid Refresh Token' };

/**
 * Device-bound refresh, the behaviour chosen for local mode. With device tracking on, the
 * tokens of a sign-in are linked to the device it was made on; a refresh must name that device
 * while it is a confirmed device of the user, else NotAuthorizedException "Invalid Refresh
 * Token". Sources: GetTokensFromRefreshToken, DeviceKey ("You must provide the confirmed device
 * key in this request if device remembering is enabled"),
 * https://docs.aws.amazon.com/cognito-user-identity-pools/latest/APIReference/API_GetTokensFromRefreshToken.html;
 * InitiateAuth, REFRESH_TOKEN_AUTH takes DEVICE_KEY,
 * https://docs.aws.amazon.com/cognito-user-identity-pools/latest/APIReference/API_InitiateAuth.html;
 * "Invalid Refresh Token" for an unconfirmed device or a missing device key,
 * https://repost.aws/knowledge-center/cognito-invalid-refresh-token-error; and the reports
 * amplify-js #2962 (quoting the AWS blog: "these tokens are linked to a single device ... all
 * future calls to revalidate that device's refresh tokens will fail" after ForgetDevice),
 * aws-sdk-java #2841 and aws-sdk-net-extensions-cognito #85. The access token names the device in
 * `device_key`: https://docs.aws.amazon.com/cognito/latest/developerguide/amazon-cognito-user-pools-using-the-access-token.html
 */
describe('device-bound refresh', () => {
  it('refreshes only with the key of the confirmed device of the sign-in, which the access token names in device_key', async () => {
    const { secret } = await createEnrolledUser(harness, 'bound.refresh@example.com', 'Bound#Refresh1');
    const laptop = browser();
    const user = laptop.user('bound.refresh@example.com');
    const { session } = await signInWithCode(user, 'bound.refresh@example.com', 'Bound#Refresh1', secret);
    const deviceKey = storedDeviceKey(laptop.storage)!;
    const refreshToken = session.getRefreshToken().getToken();
    expect(claimsOf(session.getAccessToken().getJwtToken()).device_key).toBe(deviceKey);

    // The library sends the stored key itself (DEVICE_KEY), as the SPA's refresh does.
    const refreshed = await new Promise<CognitoUserSession>((resolve, reject) =>
      user.refreshSession(session.getRefreshToken(), (error: unknown, next: CognitoUserSession) =>
        error ? reject(error) : resolve(next),
      ),
    );
    expect(claimsOf(refreshed.getAccessToken().getJwtToken()).device_key).toBe(deviceKey);
    expect((await refreshWith(refreshToken, deviceKey)).AuthenticationResult?.AccessToken).toBeDefined();
    expect((await tokensWith(refreshToken, deviceKey)).AuthenticationResult?.AccessToken).toBeDefined();

    // No key, an unknown key, another device of the same user, another user's device.
    const phone = browser();
    const onPhone = await signInWithCode(
      phone.user('bound.refresh@example.com'),
      'bound.refresh@example.com',
      'Bound#Refresh1',
      secret,
    );
    const phoneKey = storedDeviceKey(phone.storage)!;
    const other = await createEnrolledUser(harness, 'bound.other@example.com', 'Bound#Other12');
    const elsewhere = browser();
    await signInWithCode(
      elsewhere.user('bound.other@example.com'),
      'bound.other@example.com',
      'Bound#Other12',
      other.secret,
    );
    const otherUsersKey = storedDeviceKey(elsewhere.storage)!;
    for (const wrong of [undefined, 'us-east-2_00000000-0000-0000-0000-000000000000', phoneKey, otherUsersKey]) {
      await expect(refreshWith(refreshToken, wrong)).rejects.toMatchObject(INVALID_REFRESH);
      await expect(tokensWith(refreshToken, wrong)).rejects.toMatchObject(INVALID_REFRESH);
    }

    // Forgotten (from the other browser): the laptop's refresh token stops working.
    await harness.admin.send(
      new ForgetDeviceCommand({ AccessToken: onPhone.session.getAccessToken().getJwtToken(), DeviceKey: deviceKey }),
    );
    await expect(refreshWith(refreshToken, deviceKey)).rejects.toMatchObject(INVALID_REFRESH);
    await expect(tokensWith(refreshToken, deviceKey)).rejects.toMatchObject(INVALID_REFRESH);
    // The other device's own sign-in still refreshes.
    expect(
      (await refreshWith(onPhone.session.getRefreshToken().getToken(), phoneKey)).AuthenticationResult?.AccessToken,
    ).toBeDefined();
  });

  it('binds a sign-in on a remembered device (DEVICE_SRP_AUTH) to it', async () => {
    const { secret } = await createEnrolledUser(harness, 'bound.remembered@example.com', 'Bound#Remember1');
    const laptop = browser();
    const first = laptop.user('bound.remembered@example.com');
    await signInWithCode(first, 'bound.remembered@example.com', 'Bound#Remember1', secret);
    await remember(first);
    const deviceKey = storedDeviceKey(laptop.storage)!;
    const done = await signInOnDevice(
      laptop.user('bound.remembered@example.com'),
      'bound.remembered@example.com',
      'Bound#Remember1',
    );
    if (done.step !== 'DONE') throw new Error(`expected DONE, got ${done.step}`);
    expect(claimsOf(done.session.getAccessToken().getJwtToken()).device_key).toBe(deviceKey);
    const refreshToken = done.session.getRefreshToken().getToken();
    expect((await refreshWith(refreshToken, deviceKey)).AuthenticationResult?.AccessToken).toBeDefined();
    await expect(refreshWith(refreshToken)).rejects.toMatchObject(INVALID_REFRESH);
  });

  it('refuses to refresh for a new device until it is confirmed', async () => {
    const { secret } = await createEnrolledUser(harness, 'bound.unconfirmed@example.com', 'Bound#Unconf1');
    const laptop = browser();
    const user = laptop.user('bound.unconfirmed@example.com');
    // The client leaves the new device unconfirmed: its ConfirmDevice call is held back.
    let newDeviceKey = '';
    const client = (
      user as unknown as {
        client: {
          request(
            operation: string,
            params: Record<string, unknown>,
            callback: (error: unknown, data?: unknown) => void,
          ): void;
        };
      }
    ).client;
    const request = client.request.bind(client);
    client.request = (operation, params, callback) => {
      if (operation !== 'ConfirmDevice') return request(operation, params, callback);
      newDeviceKey = String(params.DeviceKey);
      callback(new Error('held back'));
    };
    expect(await signInOnDevice(user, 'bound.unconfirmed@example.com', 'Bound#Unconf1')).toEqual({ step: 'CODE' });
    await expect(sendCodeOnDevice(user, harness.totp(secret))).rejects.toThrow('held back');
    harness.advance(30_000);
    const session = user.getSignInUserSession()!;
    const accessToken = session.getAccessToken().getJwtToken();
    expect(claimsOf(accessToken).device_key).toBe(newDeviceKey);
    const refreshToken = session.getRefreshToken().getToken();
    await expect(refreshWith(refreshToken, newDeviceKey)).rejects.toMatchObject(INVALID_REFRESH);

    await harness.admin.send(
      new ConfirmDeviceCommand({
        AccessToken: accessToken,
        DeviceKey: newDeviceKey,
        DeviceSecretVerifierConfig: { PasswordVerifier: 'AAAA', Salt: 'AAAA' },
      }),
    );
    expect((await refreshWith(refreshToken, newDeviceKey)).AuthenticationResult?.AccessToken).toBeDefined();
  });
});

describe('a pool without device tracking', () => {
  it('issues no device and refuses device operations', async () => {
    const plain = await startHarness();
    try {
      const { secret } = await createEnrolledUser(plain, 'no.devices@example.com', 'No#Devices12');
      const storage = memoryStorage();
      const user = new CognitoUser({ Username: 'no.devices@example.com', Pool: plain.pool, Storage: storage });
      const first = await signInOnDevice(user, 'no.devices@example.com', 'No#Devices12');
      expect(first).toEqual({ step: 'CODE' });
      const done = await sendCodeOnDevice(user, plain.totp(secret));
      expect(done).toMatchObject({ step: 'DONE', confirmationNecessary: false });
      expect([...storage.keys()].some((key) => key.endsWith('.deviceKey'))).toBe(false);
      await expect(
        plain.admin.send(
          new AdminListDevicesCommand({ UserPoolId: plain.emulator.userPoolId, Username: 'no.devices@example.com' }),
        ),
      ).rejects.toMatchObject({ name: 'InvalidParameterException' });
    } finally {
      await plain.close();
    }
  });
});

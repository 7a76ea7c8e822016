import {
  AdminDisableUserCommand,
  AdminEnableUserCommand,
  AdminForgetDeviceCommand,
  AdminListDevicesCommand,
  AdminUserGlobalSignOutCommand,
  ConfirmDeviceCommand,
  UpdateDeviceStatusCommand,
} from '@aws-sdk/client-cognito-identity-provider';
import { AuthenticationDetails, CognitoUser, type CognitoUserSession, type IAuthenticationCallback } from 'amazon-cognito-identity-js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createEnrolledUser, startHarness, type CognitoHarness } from './support/cognito-harness.ts';

/**
 * Remembered devices through the unmodified amazon-cognito-identity-js, as the SPA drives
 * them: NewDeviceMetadata, ConfirmDevice, UpdateDeviceStatus, then DEVICE_SRP_AUTH and
 * DEVICE_PASSWORD_VERIFIER in place of the code.
 */

let harness: CognitoHarness;
beforeAll(async () => {
  harness = await startHarness({ deviceTracking: { challengeRequiredOnNewDevice: true, deviceOnlyRememberedOnUserPrompt: true } });
});
afterAll(() => harness.close());

/** A browser's storage whose keys the tests can read. */
function memoryStorage() {
  const items = new Map<string, string>();
  return {
    setItem: (key: string, value: string) => void items.set(key, value),
    getItem: (key: string) => items.get(key) ?? null,
    removeItem: (key: string) => void items.delete(key),
    clear: () => items.clear(),
    keys: () => items.keys(),
  };
}

type Outcome = { step: 'DONE'; session: CognitoUserSession; confirmationNecessary: boolean } | { step: 'CODE' } | { step: 'SETUP' };

function callbacks(resolve: (outcome: Outcome) => void, reject: (error: unknown) => void): IAuthenticationCallback {
  return {
    onSuccess: (session, confirmationNecessary) => resolve({ step: 'DONE', session, confirmationNecessary: confirmationNecessary === true }),
    onFailure: reject,
    totpRequired: () => resolve({ step: 'CODE' }),
    mfaSetup: () => resolve({ step: 'SETUP' }),
    newPasswordRequired: () => reject(new Error('unexpected new password challenge')),
    mfaRequired: () => reject(new Error('unexpected SMS challenge')),
  };
}

/** One browser: its storage keeps the tokens and the device secret between sign-ins. */
function browser() {
  const storage = memoryStorage();
  const user = (email: string) => new CognitoUser({ Username: email, Pool: harness.pool, Storage: storage });
  return { storage, user };
}

const signIn = (user: CognitoUser, email: string, password: string) =>
  new Promise<Outcome>((resolve, reject) =>
    user.authenticateUser(new AuthenticationDetails({ Username: email, Password: password }), callbacks(resolve, reject)),
  );
const sendCode = (user: CognitoUser, code: string) =>
  new Promise<Outcome>((resolve, reject) => user.sendMFACode(code, callbacks(resolve, reject), 'SOFTWARE_TOKEN_MFA'));
const remember = (user: CognitoUser) =>
  new Promise<void>((resolve, reject) => user.setDeviceStatusRemembered({ onSuccess: () => resolve(), onFailure: reject }));
const listDevices = (user: CognitoUser) =>
  new Promise<{ Devices: { DeviceKey: string; DeviceAttributes: { Name: string; Value: string }[] }[] }>((resolve, reject) =>
    user.listDevices(10, null, { onSuccess: resolve as (data: unknown) => void, onFailure: reject }),
  );
const forget = (user: CognitoUser, key: string) =>
  new Promise<void>((resolve, reject) => user.forgetSpecificDevice(key, { onSuccess: () => resolve(), onFailure: reject }));

async function signInWithCode(user: CognitoUser, email: string, password: string, secret: string) {
  expect(await signIn(user, email, password)).toEqual({ step: 'CODE' });
  const done = await sendCode(user, harness.totp(secret));
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
    expect(await signIn(again, 'device.prompt@example.com', 'Device#Prompt1')).toEqual({ step: 'CODE' });
    const second = await sendCode(again, harness.totp(secret));
    harness.advance(30_000);
    expect(second).toMatchObject({ step: 'DONE', confirmationNecessary: false });
    const { Devices } = await listDevices(again);
    expect(Devices).toHaveLength(1);
    expect(Devices[0]!.DeviceAttributes).toContainEqual({ Name: 'dev:device_remembered_status', Value: 'not_remembered' });
  });

  // As on AWS: UpdateDeviceStatus is authorized by an access token of the user alone
  // (https://docs.aws.amazon.com/cognito-user-identity-pools/latest/APIReference/API_UpdateDeviceStatus.html,
  // https://docs.aws.amazon.com/cognito/latest/developerguide/amazon-cognito-user-pools-device-tracking.html).
  it('lets any access token of the user remember a device confirmed without it; only the browser with its secret then skips the code', async () => {
    const { secret } = await createEnrolledUser(harness, 'device.status@example.com', 'Device#Status1');
    const laptop = browser();
    const onLaptop = await signInWithCode(laptop.user('device.status@example.com'), 'device.status@example.com', 'Device#Status1', secret);
    expect(onLaptop.confirmationNecessary).toBe(true);
    const laptopKey = laptop.storage.getItem([...laptop.storage.keys()].find((key) => key.endsWith('.deviceKey'))!)!;
    const phone = browser();
    const onPhone = await signInWithCode(phone.user('device.status@example.com'), 'device.status@example.com', 'Device#Status1', secret);
    const AccessToken = onPhone.session.getAccessToken().getJwtToken();

    await harness.admin.send(new UpdateDeviceStatusCommand({ AccessToken, DeviceKey: laptopKey, DeviceRememberedStatus: 'remembered' }));
    expect((await signIn(laptop.user('device.status@example.com'), 'device.status@example.com', 'Device#Status1')).step).toBe('DONE');
    expect(await signIn(phone.user('device.status@example.com'), 'device.status@example.com', 'Device#Status1')).toEqual({ step: 'CODE' });

    await harness.admin.send(new UpdateDeviceStatusCommand({ AccessToken, DeviceKey: laptopKey, DeviceRememberedStatus: 'not_remembered' }));
    expect(await signIn(laptop.user('device.status@example.com'), 'device.status@example.com', 'Device#Status1')).toEqual({ step: 'CODE' });
  });

  it('skips the code on a remembered device, never the password', async () => {
    const { secret } = await createEnrolledUser(harness, 'device.remembered@example.com', 'Device#Remember1');
    const laptop = browser();
    const first = laptop.user('device.remembered@example.com');
    await signInWithCode(first, 'device.remembered@example.com', 'Device#Remember1', secret);
    await remember(first);

    const next = laptop.user('device.remembered@example.com');
    const done = await signIn(next, 'device.remembered@example.com', 'Device#Remember1');
    expect(done.step).toBe('DONE');
    await expect(signIn(laptop.user('device.remembered@example.com'), 'device.remembered@example.com', 'Wrong#Pass123')).rejects.toMatchObject({
      code: 'NotAuthorizedException',
      message: 'Incorrect username or password.',
    });

    // Another browser has no device secret: it is asked for the code.
    const phone = browser().user('device.remembered@example.com');
    expect(await signIn(phone, 'device.remembered@example.com', 'Device#Remember1')).toEqual({ step: 'CODE' });
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
    expect(await signIn(next, 'device.forget@example.com', 'Device#Forget1')).toEqual({ step: 'CODE' });
    const done = await sendCode(next, harness.totp(secret));
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
    await harness.admin.send(new AdminForgetDeviceCommand({ ...poolAndUser, DeviceKey: listed.Devices![0]!.DeviceKey! }));
    expect((await harness.admin.send(new AdminListDevicesCommand(poolAndUser))).Devices).toEqual([]);
    await expect(
      harness.admin.send(new AdminForgetDeviceCommand({ ...poolAndUser, DeviceKey: listed.Devices![0]!.DeviceKey! })),
    ).rejects.toMatchObject({ name: 'ResourceNotFoundException', message: 'Device does not exist.' });
    expect(await signIn(laptop.user('device.admin@example.com'), 'device.admin@example.com', 'Device#Admin12')).toEqual({ step: 'CODE' });
  });

  it('refuses a disabled account on a remembered device, and a global sign-out does not skip the password', async () => {
    const { secret } = await createEnrolledUser(harness, 'device.disabled@example.com', 'Device#Disable1');
    const laptop = browser();
    const first = laptop.user('device.disabled@example.com');
    await signInWithCode(first, 'device.disabled@example.com', 'Device#Disable1', secret);
    await remember(first);
    const poolAndUser = { UserPoolId: harness.emulator.userPoolId, Username: 'device.disabled@example.com' };
    await harness.admin.send(new AdminUserGlobalSignOutCommand(poolAndUser));
    await expect(signIn(laptop.user('device.disabled@example.com'), 'device.disabled@example.com', 'Wrong#Pass123')).rejects.toMatchObject({
      code: 'NotAuthorizedException',
    });
    await harness.admin.send(new AdminDisableUserCommand(poolAndUser));
    await expect(signIn(laptop.user('device.disabled@example.com'), 'device.disabled@example.com', 'Device#Disable1')).rejects.toMatchObject({
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
        new ConfirmDeviceCommand({ AccessToken: accessToken, DeviceKey: deviceKey, DeviceSecretVerifierConfig: { PasswordVerifier: 'AAAA', Salt: 'AAAA' } }),
      ),
    ).rejects.toMatchObject({ name: 'NotAuthorizedException' });
  });
});

describe('a pool without device tracking', () => {
  it('issues no device and refuses device operations', async () => {
    const plain = await startHarness();
    try {
      const { secret } = await createEnrolledUser(plain, 'no.devices@example.com', 'No#Devices12');
      const storage = memoryStorage();
      const user = new CognitoUser({ Username: 'no.devices@example.com', Pool: plain.pool, Storage: storage });
      const first = await new Promise<Outcome>((resolve, reject) =>
        user.authenticateUser(new AuthenticationDetails({ Username: 'no.devices@example.com', Password: 'No#Devices12' }), callbacks(resolve, reject)),
      );
      expect(first).toEqual({ step: 'CODE' });
      const done = await new Promise<Outcome>((resolve, reject) => user.sendMFACode(plain.totp(secret), callbacks(resolve, reject), 'SOFTWARE_TOKEN_MFA'));
      expect(done).toMatchObject({ step: 'DONE', confirmationNecessary: false });
      expect([...storage.keys()].some((key) => key.endsWith('.deviceKey'))).toBe(false);
      await expect(
        plain.admin.send(new AdminListDevicesCommand({ UserPoolId: plain.emulator.userPoolId, Username: 'no.devices@example.com' })),
      ).rejects.toMatchObject({ name: 'InvalidParameterException' });
    } finally {
      await plain.close();
    }
  });
});

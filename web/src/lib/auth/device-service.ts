import type { CognitoUser } from 'amazon-cognito-identity-js';
import { toAuthError, type AuthError, type RememberedDevice } from './types.ts';

/**
 * Remembered devices of the signed-in user, on amazon-cognito-identity-js (UpdateDeviceStatus,
 * ListDevices, ForgetDevice). Loaded only when used, apart from the sign-in's own scripts.
 * Each function takes the user from `CognitoAuthService.signedInUserWithDevice()`.
 */

interface DeviceListPage {
  Devices?: { DeviceKey?: string; DeviceAttributes?: { Name: string; Value?: string }[]; DeviceLastAuthenticatedDate?: number }[];
  PaginationToken?: string;
}

/** ListDevices' page size limit. */
const DEVICE_PAGE = 60;

const callbacks = (resolve: () => void, reject: (error: AuthError) => void) => ({
  onSuccess: () => resolve(),
  onFailure: (error: unknown) => reject(toAuthError(error)),
});

/** This browser's device key, which the library loads from its storage. */
const thisDeviceKey = (user: CognitoUser) => (user as unknown as { deviceKey?: string | null }).deviceKey ?? null;

/** Remembers this browser: its next sign-ins skip the code. */
export function rememberDevice(user: CognitoUser): Promise<void> {
  return new Promise<void>((resolve, reject) => user.setDeviceStatusRemembered(callbacks(resolve, reject)));
}

/** The devices the identity provider tracks for the user, this browser marked. */
export async function listDevices(user: CognitoUser): Promise<RememberedDevice[]> {
  const thisDevice = thisDeviceKey(user);
  const devices: RememberedDevice[] = [];
  let token: string | null = null;
  do {
    const page: DeviceListPage = await new Promise((resolve, reject) => {
      user.listDevices(DEVICE_PAGE, token, {
        onSuccess: (data: DeviceListPage) => resolve(data),
        onFailure: (error) => reject(toAuthError(error)),
      });
    });
    for (const device of page.Devices ?? []) {
      if (!device.DeviceKey) continue;
      const attribute = (name: string) => device.DeviceAttributes?.find((candidate) => candidate.Name === name)?.Value;
      devices.push({
        key: device.DeviceKey,
        name: attribute('device_name') ?? 'Unknown device',
        lastUsed: (device.DeviceLastAuthenticatedDate ?? 0) * 1000,
        remembered: attribute('dev:device_remembered_status') === 'remembered',
        current: device.DeviceKey === thisDevice,
      });
    }
    token = page.PaginationToken ?? null;
  } while (token);
  return devices;
}

/** Forgets a device; forgetting this browser also drops its device secret here. */
export function forgetDevice(user: CognitoUser, deviceKey: string): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    if (deviceKey === thisDeviceKey(user)) user.forgetDevice(callbacks(resolve, reject));
    else user.forgetSpecificDevice(deviceKey, callbacks(resolve, reject));
  });
}

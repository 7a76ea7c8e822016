import { randomBytes, randomUUID } from 'node:crypto';
import type { PoolContext } from './context.ts';
import { ERRORS } from './errors.ts';
import type { DeviceRecord, UserRecord } from './state.ts';

/**
 * Device tracking ("remembered devices"): a sign-in that names no known device ends with
 * NewDeviceMetadata; the client confirms the device with an SRP verifier of a secret only it
 * holds; a remembered device later answers DEVICE_SRP_AUTH instead of an MFA code.
 */

/** Devices issued but never confirmed are dropped after this long. */
const UNCONFIRMED_DEVICE_MS = 24 * 60 * 60_000;

export const devicesOf = (user: UserRecord): DeviceRecord[] => user.devices ?? [];

/** The user's device with this key; ResourceNotFoundException ("Device does not exist.") otherwise. */
export function requireDevice(user: UserRecord, deviceKey: string): DeviceRecord {
  const device = devicesOf(user).find((candidate) => candidate.key === deviceKey);
  if (!device) throw ERRORS.deviceNotFound();
  return device;
}

export function requireDeviceTracking(context: PoolContext): void {
  if (!context.deviceTracking) throw ERRORS.deviceTrackingOff();
}

/** A confirmed device whose owner chose to remember it (or that is remembered without asking). */
export const isRemembered = (
  device: DeviceRecord | undefined,
): device is DeviceRecord & { secret: { salt: string; verifier: string } } =>
  device?.secret !== undefined && device.remembered;

/** A new, unconfirmed device for the end of a sign-in. */
export function issueDevice(context: PoolContext, user: UserRecord): DeviceRecord {
  const now = context.now();
  const device: DeviceRecord = {
    key: `${context.region}_${randomUUID()}`,
    groupKey: `-${randomBytes(7).toString('base64url')}`,
    remembered: false,
    createdAt: now,
    updatedAt: now,
    lastAuthenticatedAt: now,
  };
  const kept = devicesOf(user).filter(
    (other) => other.secret !== undefined || now - other.createdAt < UNCONFIRMED_DEVICE_MS,
  );
  user.devices = [...kept, device];
  context.store.saveUser(user);
  return device;
}

export function touchDevice(context: PoolContext, user: UserRecord, device: DeviceRecord): void {
  device.lastAuthenticatedAt = context.now();
  context.store.saveUser(user);
}

export function forgetDevice(context: PoolContext, user: UserRecord, deviceKey: string): void {
  requireDevice(user, deviceKey);
  user.devices = devicesOf(user).filter((device) => device.key !== deviceKey);
  context.store.saveUser(user);
}

const seconds = (ms: number) => ms / 1000;

/** DeviceType of the API reference. */
export function deviceType(device: DeviceRecord) {
  return {
    DeviceKey: device.key,
    DeviceAttributes: [
      { Name: 'device_status', Value: 'valid' },
      ...(device.name !== undefined ? [{ Name: 'device_name', Value: device.name }] : []),
      { Name: 'dev:device_remembered_status', Value: device.remembered ? 'remembered' : 'not_remembered' },
    ],
    DeviceCreateDate: seconds(device.createdAt),
    DeviceLastModifiedDate: seconds(device.updatedAt),
    DeviceLastAuthenticatedDate: seconds(device.lastAuthenticatedAt),
  };
}

import { z } from 'zod';
import type { Operation, PoolContext } from '../context.ts';
import { deviceType, devicesOf, forgetDevice, requireDevice, requireDeviceTracking } from '../devices.ts';
import { ERRORS, invalidParameter } from '../errors.ts';
import type { UserRecord } from '../state.ts';
import { authenticate } from '../tokens.ts';
import { parseInput, shapes } from '../validation.ts';
import { pageToken, readPageToken, requirePool, requireUser } from './common.ts';

/**
 * The device operations of the API reference: ConfirmDevice, UpdateDeviceStatus, GetDevice,
 * ListDevices and ForgetDevice for the signed-in user (access token), and their admin
 * counterparts AdminGetDevice, AdminListDevices and AdminForgetDevice.
 */

const deviceKey = z
  .string()
  .min(1)
  .max(55)
  .regex(/^[\w-]+_[0-9a-f-]+$/);
const base64 = z
  .string()
  .min(1)
  .max(2048)
  .regex(/^[A-Za-z0-9+/]+={0,2}$/);
const deviceListLimit = z.number().int().min(0).max(60);
const DEFAULT_DEVICE_PAGE = 60;

function hex(value: string): string {
  return Buffer.from(value, 'base64').toString('hex');
}

const confirmDevice: Operation = {
  run(context, body) {
    const input = parseInput(
      z.object({
        AccessToken: shapes.accessToken,
        DeviceKey: deviceKey,
        DeviceSecretVerifierConfig: z
          .object({ PasswordVerifier: base64.optional(), Salt: base64.optional() })
          .optional(),
        DeviceName: z.string().min(1).max(1024).optional(),
      }),
      body,
    );
    requireDeviceTracking(context);
    const { user } = authenticate(context, input.AccessToken);
    const device = requireDevice(user, input.DeviceKey);
    if (device.secret) throw ERRORS.deviceAlreadyConfirmed();
    const { PasswordVerifier, Salt } = input.DeviceSecretVerifierConfig ?? {};
    if (PasswordVerifier === undefined || Salt === undefined) {
      throw invalidParameter('DeviceSecretVerifierConfig must include PasswordVerifier and Salt.');
    }
    const promptUser = context.deviceTracking!.deviceOnlyRememberedOnUserPrompt;
    device.secret = { salt: hex(Salt), verifier: hex(PasswordVerifier) };
    if (input.DeviceName !== undefined) device.name = input.DeviceName;
    // Without "only remembered on user prompt" a confirmed device is remembered at once.
    device.remembered = !promptUser;
    device.updatedAt = context.now();
    context.store.saveUser(user);
    return { UserConfirmationNecessary: promptUser };
  },
};

function confirmedDevice(user: UserRecord, key: string) {
  const device = requireDevice(user, key);
  if (!device.secret) throw ERRORS.deviceNotConfirmed();
  return device;
}

/**
 * As in AWS (UpdateDeviceStatus; "Working with user devices in your user pool"), any access
 * token of the user sets the remembered status of any of the user's confirmed devices, either
 * way and at any time: with "only remembered on user prompt" this is how the app reports the
 * user's choice after ConfirmDevice. Skipping the code later still takes the device's secret,
 * which only the browser that confirmed the device holds, and the password.
 */
const updateDeviceStatus: Operation = {
  run(context, body) {
    const input = parseInput(
      z.object({
        AccessToken: shapes.accessToken,
        DeviceKey: deviceKey,
        DeviceRememberedStatus: z.enum(['remembered', 'not_remembered']).optional(),
      }),
      body,
    );
    requireDeviceTracking(context);
    const { user } = authenticate(context, input.AccessToken);
    const device = confirmedDevice(user, input.DeviceKey);
    if (input.DeviceRememberedStatus !== undefined) {
      device.remembered = input.DeviceRememberedStatus === 'remembered';
      device.updatedAt = context.now();
      context.store.saveUser(user);
    }
    return {};
  },
};

/** The user's confirmed devices, oldest first, one page at a time. */
function listDevices(user: UserRecord, limit: number | undefined, token: string | undefined) {
  const start = readPageToken('d', token);
  const confirmed = devicesOf(user).filter((device) => device.secret !== undefined);
  const size = limit === undefined || limit === 0 ? DEFAULT_DEVICE_PAGE : limit;
  const page = confirmed.slice(start, start + size);
  const next = start + size < confirmed.length ? pageToken('d', start + size) : undefined;
  return { Devices: page.map(deviceType), ...(next ? { PaginationToken: next } : {}) };
}

const paging = { Limit: deviceListLimit.optional(), PaginationToken: shapes.paginationToken.optional() };

const listDevicesOperation: Operation = {
  run(context, body) {
    const input = parseInput(z.object({ AccessToken: shapes.accessToken, ...paging }), body);
    requireDeviceTracking(context);
    return listDevices(authenticate(context, input.AccessToken).user, input.Limit, input.PaginationToken);
  },
};

const getDevice: Operation = {
  run(context, body) {
    const input = parseInput(z.object({ AccessToken: shapes.accessToken, DeviceKey: deviceKey }), body);
    requireDeviceTracking(context);
    return { Device: deviceType(confirmedDevice(authenticate(context, input.AccessToken).user, input.DeviceKey)) };
  },
};

const forgetDeviceOperation: Operation = {
  run(context, body) {
    const input = parseInput(z.object({ AccessToken: shapes.accessToken, DeviceKey: deviceKey }), body);
    requireDeviceTracking(context);
    forgetDevice(context, authenticate(context, input.AccessToken).user, input.DeviceKey);
    return {};
  },
};

function adminUser(context: PoolContext, input: { UserPoolId: string; Username: string }): UserRecord {
  requirePool(context, input.UserPoolId);
  requireDeviceTracking(context);
  return requireUser(context, input.Username);
}

const poolUser = { UserPoolId: shapes.userPoolId, Username: shapes.username };

const adminListDevices: Operation = {
  admin: true,
  run(context, body) {
    const input = parseInput(z.object({ ...poolUser, ...paging }), body);
    return listDevices(adminUser(context, input), input.Limit, input.PaginationToken);
  },
};

const adminGetDevice: Operation = {
  admin: true,
  run(context, body) {
    const input = parseInput(z.object({ ...poolUser, DeviceKey: deviceKey }), body);
    return { Device: deviceType(confirmedDevice(adminUser(context, input), input.DeviceKey)) };
  },
};

const adminForgetDevice: Operation = {
  admin: true,
  run(context, body) {
    const input = parseInput(z.object({ ...poolUser, DeviceKey: deviceKey }), body);
    forgetDevice(context, adminUser(context, input), input.DeviceKey);
    return {};
  },
};

export const deviceOperations = {
  ConfirmDevice: confirmDevice,
  UpdateDeviceStatus: updateDeviceStatus,
  ListDevices: listDevicesOperation,
  GetDevice: getDevice,
  ForgetDevice: forgetDeviceOperation,
  AdminListDevices: adminListDevices,
  AdminGetDevice: adminGetDevice,
  AdminForgetDevice: adminForgetDevice,
};

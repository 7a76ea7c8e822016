import type { Operation } from '../context.ts';
import { accountOperations } from './account.ts';
import { adminUserOperations } from './admin-users.ts';
import { deviceOperations } from './devices.ts';
import { groupOperations } from './groups.ts';
import { listUserOperations } from './list-users.ts';
import { mfaOperations } from './mfa.ts';
import { passkeyOperations } from './passkeys.ts';
import { selfServiceOperations } from './self-service.ts';
import { signInOperations } from './sign-in.ts';

/** Every action the emulator answers, by the name in `X-Amz-Target`. */
export const OPERATIONS: ReadonlyMap<string, Operation> = new Map(
  Object.entries({
    ...signInOperations,
    ...mfaOperations,
    ...selfServiceOperations,
    ...accountOperations,
    ...adminUserOperations,
    ...groupOperations,
    ...listUserOperations,
    ...deviceOperations,
    ...passkeyOperations,
  }),
);

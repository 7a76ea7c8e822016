import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { mkdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { processAlive } from './process-alive.ts';

/**
 * A lock that follows its owner: a directory holding the owner's process id and start time.
 * A lock whose owner has ended (killed, crashed, Ctrl-C) is taken at once by the next process
 * that wants it; no age decides. The start time tells a live owner from a new process that
 * was given the same id after the owner ended.
 */

/** The owner recorded in a lock: its pid and its start time (clock ticks since boot; '' where /proc is absent). */
interface Owner {
  readonly pid: number;
  readonly started: string;
}

const OWNER_FILE = 'owner';

/** Field 22 of /proc/<pid>/stat: when the process started, in clock ticks since boot. */
export function processStartTime(pid: number): string {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // The command name (field 2) may hold spaces and parentheses: fields after the last ')' are fixed.
    return stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19] ?? '';
  } catch {
    return '';
  }
}

/** Whether the process recorded as owner still runs (and is the same process, where /proc tells). */
function ownerAlive(owner: Owner): boolean {
  if (!processAlive(owner.pid)) return false;
  if (owner.started === '') return true;
  const now = processStartTime(owner.pid);
  return now === '' || now === owner.started;
}

async function readOwner(lock: string): Promise<Owner | undefined> {
  const text = await readFile(join(lock, OWNER_FILE), 'utf8').catch(() => undefined);
  if (text === undefined) return undefined;
  const [pid, started = ''] = text.trim().split(' ');
  return Number(pid) > 0 ? { pid: Number(pid), started } : undefined;
}

export type LockState = { readonly held: true } | { readonly held: false; readonly owner: number };

/**
 * Tries to take `lock` for this process. The lock directory is written in full under another
 * name and renamed into place, so a lock is never seen without its owner. A lock left by an
 * owner that has ended is removed and taken in the same call.
 */
export async function tryLock(lock: string): Promise<LockState> {
  for (let attempt = 0; attempt < 3; attempt += 1) {
    const staging = `${lock}.new-${process.pid}-${randomUUID().slice(0, 8)}`;
    await mkdir(staging, { recursive: true });
    await writeFile(join(staging, OWNER_FILE), `${process.pid} ${processStartTime(process.pid)}`);
    try {
      await rename(staging, lock);
      return { held: true };
    } catch (error) {
      await rm(staging, { recursive: true, force: true });
      const code = (error as NodeJS.ErrnoException).code;
      if (code !== 'ENOTEMPTY' && code !== 'EEXIST') throw error;
    }
    const owner = await readOwner(lock);
    if (owner !== undefined && ownerAlive(owner)) return { held: false, owner: owner.pid };
    // Its owner has ended (or the directory holds no owner, which this module never writes): take it over.
    await rm(lock, { recursive: true, force: true });
  }
  const owner = await readOwner(lock);
  return { held: false, owner: owner?.pid ?? 0 };
}

/** Whether `lock` is held by a live process. */
export async function lockHeld(lock: string): Promise<boolean> {
  const owner = await readOwner(lock);
  return owner !== undefined && ownerAlive(owner);
}

/** Releases a lock this process holds. */
export async function unlock(lock: string): Promise<void> {
  const owner = await readOwner(lock);
  if (owner?.pid === process.pid) await rm(lock, { recursive: true, force: true });
}

import { spawn } from 'node:child_process';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { lockHeld, processStartTime, tryLock, unlock } from '#local/owner-lock.ts';

/** A process that has ended: its pid, once it is reaped. */
async function endedPid(): Promise<number> {
  const child = spawn(process.execPath, ['-e', '']);
  await new Promise((resolve) => child.once('exit', resolve));
  return child.pid!;
}

describe('a lock that follows its owner', () => {
  let root: string;
  beforeAll(async () => {
    root = await mkdtemp(join(tmpdir(), 'owner-lock-test-'));
  });
  afterAll(() => rm(root, { recursive: true, force: true }));

  it('is taken by the first process, names it, and is refused to others while it lives', async () => {
    const lock = join(root, 'first.lock');
    expect(await tryLock(lock)).toEqual({ held: true });
    const [pid, started] = (await readFile(join(lock, 'owner'), 'utf8')).split(' ');
    expect(Number(pid)).toBe(process.pid);
    expect(started).toBe(processStartTime(process.pid));
    expect(started).toMatch(/^\d+$/);
    expect(await lockHeld(lock)).toBe(true);
    await unlock(lock);
    expect(await lockHeld(lock)).toBe(false);
  });

  it('is refused while a live process holds it', async () => {
    const lock = join(root, 'parent.lock');
    await mkdir(lock);
    // This test runner's parent is alive for the whole test.
    await writeFile(join(lock, 'owner'), `${process.ppid} ${processStartTime(process.ppid)}`);
    expect(await tryLock(lock)).toEqual({ held: false, owner: process.ppid });
    expect(await lockHeld(lock)).toBe(true);
  });

  it('is taken at once when its owner has ended, whatever its age', async () => {
    const lock = join(root, 'orphan.lock');
    await mkdir(lock);
    await writeFile(join(lock, 'owner'), `${await endedPid()} 12345`);
    expect(await lockHeld(lock)).toBe(false);
    expect(await tryLock(lock)).toEqual({ held: true });
    expect((await readFile(join(lock, 'owner'), 'utf8')).split(' ')[0]).toBe(String(process.pid));
  });

  it('is taken when its pid now belongs to another process (the start time differs)', async () => {
    const lock = join(root, 'reused.lock');
    await mkdir(lock);
    await writeFile(join(lock, 'owner'), `${process.ppid} 1`);
    expect(await tryLock(lock)).toEqual({ held: true });
  });

  it('is taken when an older version left it without an owner', async () => {
    const lock = join(root, 'legacy.lock');
    await mkdir(lock);
    expect(await tryLock(lock)).toEqual({ held: true });
  });

  it('is not released by a process that does not hold it', async () => {
    const lock = join(root, 'other.lock');
    await mkdir(lock);
    await writeFile(join(lock, 'owner'), `${process.ppid} ${processStartTime(process.ppid)}`);
    await unlock(lock);
    expect(await lockHeld(lock)).toBe(true);
  });
});

import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { describe, expect, it } from 'vitest';
import { launcherChain, parentPid, watchProcesses } from '#local/launcher-watch.ts';
import { processAlive } from '#local/process-alive.ts';

describe('the processes that launched the stack', () => {
  it('reads the chain of parents, nearest first, up to the depth asked', () => {
    const chain = launcherChain(2);
    expect(chain[0]).toBe(process.ppid);
    expect(chain.length).toBeLessThanOrEqual(2);
    if (chain.length === 2) expect(chain[1]).toBe(parentPid(process.ppid));
    expect(parentPid(process.pid)).toBe(process.ppid);
  });

  it('reports the one that ends, once', async () => {
    const child = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 60_000)'], { stdio: 'ignore' });
    const pid = child.pid!;
    const gone: number[] = [];
    const stop = watchProcesses([process.pid, pid], (ended) => gone.push(ended), 50);
    expect(processAlive(pid)).toBe(true);
    child.kill('SIGTERM');
    await once(child, 'exit');
    await expect.poll(() => gone, { timeout: 2_000 }).toEqual([pid]);
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(gone).toEqual([pid]);
    stop();
  });
});

import { mkdtemp, rm } from 'node:fs/promises';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { groupAlive, processAlive } from '#local/process-alive.ts';
import { findFreePortBase, PORT_COUNT } from '#local/ports.ts';
import { spawnStack, type RunningStack } from '#local/stack-process.ts';

/** Whether something accepts connections on the port. */
const listening = (port: number) =>
  new Promise<boolean>((resolve) => {
    const socket = connect({ host: '127.0.0.1', port });
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });

describe('npm start and its signals', () => {
  let dataDir: string;
  let portBase: number;
  let running: RunningStack | undefined;
  let output = '';

  beforeAll(async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'portal-signal-test-'));
    portBase = await findFreePortBase();
  });

  afterAll(async () => {
    await running?.stop();
    await rm(dataDir, { recursive: true, force: true });
  });

  it('prints the mail inbox and the captured-mail address, and stops everything when SIGTERM goes to npm alone', async () => {
    running = await spawnStack({ dataDir, portBase, launcher: 'npm', onOutput: (chunk) => (output += chunk) });
    const { info, pid } = running;
    for (let waited = 0; !output.includes('Mail inbox:') && waited < 10_000; waited += 100) await sleep(100);
    expect(output).toContain(`Portal ready at ${info.webUrl}`);
    expect(output).toContain(`Mail inbox: ${info.mail.inboxUrl}`);
    expect(output).toContain(info.mail.apiUrl);

    const ports = Array.from({ length: PORT_COUNT }, (_, offset) => portBase + offset);
    expect(await Promise.all(ports.map(listening))).toEqual(ports.map(() => true));

    // The signal a service manager or `kill <pid of npm>` sends: to npm only, not to its process group.
    process.kill(pid, 'SIGTERM');
    for (let waited = 0; groupAlive(pid) && waited < 20_000; waited += 200) await sleep(200);

    expect(processAlive(pid)).toBe(false);
    expect(groupAlive(pid)).toBe(false);
    expect(await Promise.all(ports.map(listening))).toEqual(ports.map(() => false));
    expect(output).toContain('stopping the local stack');
  });
});

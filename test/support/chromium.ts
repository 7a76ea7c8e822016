import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { CHROMIUM_PATH } from '../e2e/support/browser.ts';

function run(command: string, args: readonly string[]): void {
  const result = spawnSync(command, args, {
    stdio: 'inherit',
    env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' },
  });
  if (result.status !== 0)
    throw new Error(`\`${command} ${args.join(' ')}\` failed (exit ${result.status ?? result.signal})`);
}

/** Debian's Chromium, installed once per machine (Playwright cannot download browsers here). */
export function ensureChromium(): void {
  if (existsSync(CHROMIUM_PATH)) return;
  if (process.getuid?.() !== 0) {
    throw new Error(
      `${CHROMIUM_PATH} is missing: install it with \`sudo apt-get update && sudo apt-get install -y chromium\``,
    );
  }
  console.log(`${CHROMIUM_PATH} is missing: installing Debian's chromium...`);
  run('apt-get', ['update']);
  run('apt-get', ['install', '-y', '--no-install-recommends', 'chromium']);
}

import { chromium, type Browser, type LaunchOptions } from 'playwright-core';

/** Debian's Chromium: Playwright cannot download its own browsers on these machines. */
export const CHROMIUM_PATH = '/usr/bin/chromium';

/**
 * Flags that let Chromium run headless as root in a container without reaching any host
 * but the ones a page asks for (no background updates, sync or QUIC probes).
 */
const CHROMIUM_ARGS: readonly string[] = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  // Local QuickSight serves its embed pages over https with a self-signed localhost certificate.
  '--ignore-certificate-errors',
  // Less work per page on the 2-core machines the tests run on: the embedded frame shares its page's
  // renderer process, compositing stays in the browser process, and no extension, audio or
  // translation service starts. What a page can do and see is unchanged.
  '--disable-site-isolation-trials',
  '--in-process-gpu',
  '--disable-extensions',
  '--mute-audio',
  '--disable-features=Translate,OptimizationHints,MediaRouter',
];

/** A headless Chromium for journeys and benches; close it when done. */
export function launchBrowser(options: Omit<LaunchOptions, 'executablePath' | 'headless'> = {}): Promise<Browser> {
  return chromium.launch({
    ...options,
    executablePath: CHROMIUM_PATH,
    headless: true,
    args: [...CHROMIUM_ARGS, ...(options.args ?? [])],
  });
}

import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import type { AxeResults, Result } from 'axe-core';
import type { Page } from 'playwright-core';

const require = createRequire(import.meta.url);
let axeSource: Promise<string> | undefined;

/** axe-core's browser build, read from node_modules (pages may load nothing from a CDN). */
function loadAxe(): Promise<string> {
  axeSource ??= readFile(require.resolve('axe-core/axe.min.js'), 'utf8');
  return axeSource;
}

function describe(violation: Result): string {
  const targets = violation.nodes.slice(0, 5).map((node) => `    ${node.target.join(' ')}`);
  return `${violation.impact}: ${violation.id} - ${violation.help}\n${targets.join('\n')}`;
}

/** Runs axe-core in the page and throws, listing them, when it finds serious or critical violations. */
export async function expectNoSeriousA11yViolations(page: Page): Promise<void> {
  // Injected through the DevTools protocol, so the page's CSP (script-src 'self') allows it.
  await page.evaluate(await loadAxe());
  const results = await page.evaluate(async () => {
    // With no context axe checks the whole document.
    const axe = (globalThis as unknown as { axe: { run: () => Promise<AxeResults> } }).axe;
    return axe.run();
  });
  const serious = results.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
  if (serious.length > 0) {
    throw new Error(`Accessibility violations on ${page.url()}:\n${serious.map(describe).join('\n')}`);
  }
}

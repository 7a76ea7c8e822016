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

export type Impact = 'minor' | 'moderate' | 'serious' | 'critical';

/** Runs axe-core in the page and throws, listing them, when it finds violations of the given impacts. */
export async function expectNoA11yViolations(page: Page, impacts: readonly Impact[]): Promise<void> {
  // Injected through the DevTools protocol, so the page's CSP (script-src 'self') allows it; once per
  // document (the SPA's routes keep it), as parsing its half a megabyte again costs each check.
  const injected = await page.evaluate(() => 'axe' in globalThis);
  if (!injected) await page.evaluate(await loadAxe());
  const violations = await page.evaluate(async () => {
    // With no context axe checks the whole document. Only the violations come back: axe keeps one node of
    // each other result type (resultTypes), and the passes, inapplicable and incomplete lists are not
    // carried to the test, which reads none of them. The document's own frames are not entered (iframes:
    // false): the only one is QuickSight's dashboard, of another origin, whose content is not the portal's and
    // which axe cannot reach from here; its attempt to message the frame made the browser warn of a
    // postMessage to the wrong origin. The frame element itself (its title) is checked with the document.
    const axe = (
      globalThis as unknown as {
        axe: { run: (options: { resultTypes: readonly string[]; iframes: boolean }) => Promise<AxeResults> };
      }
    ).axe;
    return (await axe.run({ resultTypes: ['violations'], iframes: false })).violations;
  });
  const found = violations.filter((v) => v.impact != null && impacts.includes(v.impact));
  if (found.length > 0) {
    throw new Error(
      `Accessibility violations (${impacts.join(', ')}) on ${page.url()}:\n${found.map(describe).join('\n')}`,
    );
  }
}

/** Runs axe-core in the page and throws, listing them, when it finds serious or critical violations. */
export function expectNoSeriousA11yViolations(page: Page): Promise<void> {
  return expectNoA11yViolations(page, ['serious', 'critical']);
}

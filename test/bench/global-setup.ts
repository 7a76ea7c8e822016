import { ensureChromium } from '../support/chromium.ts';

/** The bench smoke's admin table and dashboard modules drive Debian's Chromium, installed here when missing. */
export default function setup(): void {
  ensureChromium();
}

import { UAParser } from 'ua-parser-js';

/**
 * A remembered device as a person knows it, from the user agent the browser reported:
 * "Chrome on Linux", "Safari on iOS". Parts the parser cannot tell are left out; with
 * neither, the reported string is shown as it is.
 */
export function deviceName(userAgent: string): string {
  const { browser, os } = new UAParser(userAgent).getResult();
  if (browser.name && os.name) return `${browser.name} on ${os.name}`;
  return browser.name ?? os.name ?? (userAgent.trim() || 'Unknown device');
}

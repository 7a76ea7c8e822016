import { isIP } from 'node:net';
import { invalidParameter } from './errors.ts';

/**
 * `AllowedDomains` of the embed-URL operations, checked as QuickSight documents them:
 * - at most three domains or subdomains per call (API reference, GenerateEmbedUrlForRegisteredUser);
 * - https only, with http accepted for `localhost` (User Guide, "Allow listing domains at
 *   runtime with the QuickSight API": https://docs.aws.amazon.com/quicksight/latest/user/embedding-run-time.html);
 * - a `*.` wildcard only as the first label (`https://*.sapp.amazon.com` is valid,
 *   `https://example.com.*.example-1.co.uk` is not); IP addresses are not valid, with or
 *   without a port.
 * The documentation gives no message text for these refusals, so the messages below are
 * written in the style of QuickSight's InvalidParameterValueException messages.
 */

const MAX_ALLOWED_DOMAINS = 3;

const LABEL = /^(?!-)[a-z0-9-]{1,63}(?<!-)$/;
const TOP_LABEL = /^(?:[a-z]{2,63}|xn--[a-z0-9-]{1,59})$/;

/** Why a domain is not valid, or undefined when it is. */
function problemOf(value: string): string | undefined {
  const match = /^(https?):\/\/(\*\.)?([^/?#@\s]+)$/i.exec(value);
  if (!match) return 'it must be a scheme and a host name, such as https://example.com, without a path';
  const [, scheme = '', wildcard, authority = ''] = match;
  let url: URL;
  try {
    url = new URL(`${scheme}://${authority}`);
  } catch {
    return 'it is not a valid URL';
  }
  const host = url.hostname;
  if (host.startsWith('[') || isIP(host) !== 0) return 'IP addresses are not supported';
  if (host === 'localhost') {
    return wildcard ? 'a wildcard is not supported for localhost' : undefined;
  }
  if (scheme.toLowerCase() !== 'https') return 'only https is supported, except for http://localhost';
  const labels = host.split('.');
  if (labels.length < 2 || !labels.every((label) => LABEL.test(label)) || !TOP_LABEL.test(labels.at(-1) ?? '')) {
    return 'it is not a valid domain name';
  }
  return undefined;
}

/**
 * The domains as frame ancestors (scheme, host in ASCII and any port), or an
 * InvalidParameterValueException naming the first value QuickSight would refuse.
 */
export function checkAllowedDomains(domains: readonly string[]): string[] {
  if (domains.length > MAX_ALLOWED_DOMAINS) {
    throw invalidParameter(
      `AllowedDomains contains ${domains.length} domains; you can specify at most ${MAX_ALLOWED_DOMAINS} domains or subdomains.`,
    );
  }
  return domains.map((domain) => {
    const problem = problemOf(domain);
    if (problem) throw invalidParameter(`The domain ${domain} in AllowedDomains is not valid: ${problem}.`);
    const wildcard = /^https?:\/\/\*\./i.test(domain);
    const url = new URL(domain.replace(/^(https?:\/\/)\*\./i, '$1'));
    return `${url.protocol}//${wildcard ? '*.' : ''}${url.host}`;
  });
}

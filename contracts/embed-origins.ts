/**
 * Which site origins QuickSight accepts in `AllowedDomains` of GenerateEmbedUrlForRegisteredUser:
 * at most three, https only (http only for localhost), no IP addresses
 * (https://docs.aws.amazon.com/quicksight/latest/user/embedding-run-time.html). The embed
 * function sends the site origins as they are, so the deployment configuration refuses at
 * synth what QuickSight would refuse on every embed.
 */

export const MAX_EMBED_ORIGINS = 3;

// A dotted-decimal IPv4 address, as node:net's isIPv4 reads one (contracts/ is also compiled
// for the browser, which has no node:net). A parsed URL's hostname holds an IPv6 address only
// in brackets, so this and the bracket test below cover node:net's isIP.
const IPV4_PART = '(?:25[0-5]|2[0-4][0-9]|1[0-9][0-9]|[1-9][0-9]|[0-9])';
const IPV4 = new RegExp(`^(?:${IPV4_PART}\\.){3}${IPV4_PART}$`);

/** Why QuickSight would refuse this origin (`scheme://host[:port]`), or undefined. */
export function embedOriginProblem(origin: string): string | undefined {
  let url: URL;
  try {
    url = new URL(origin);
  } catch {
    return `${origin} is not an origin`;
  }
  const host = url.hostname;
  if (host.startsWith('[') || IPV4.test(host)) {
    return `${origin} is an IP address; QuickSight embeds only in domain names (use localhost for this machine)`;
  }
  if (url.protocol !== 'https:' && !(url.protocol === 'http:' && host === 'localhost')) {
    return `${origin} is not https; QuickSight embeds over http only for localhost`;
  }
  return undefined;
}

/** Every problem of a list of site origins, the count included. */
export function embedOriginsProblems(origins: readonly string[]): string[] {
  const problems = origins.flatMap((origin) => embedOriginProblem(origin) ?? []);
  if (origins.length > MAX_EMBED_ORIGINS) {
    problems.push(
      `${origins.length} origins (${origins.join(', ')}) are more than the ${MAX_EMBED_ORIGINS} domains QuickSight embeds in`,
    );
  }
  return problems;
}

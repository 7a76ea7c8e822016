import type { RuntimeConfig, SessionSettings } from '#contracts/config.ts';

export type { RuntimeConfig };

/** Thrown when /config.json is missing or does not match the contract. */
export class ConfigError extends Error {
  override readonly name = 'ConfigError';
}

const FUNCTION_NAMES = ['embed', 'quicksightAdmin', 'userAdmin', 'mfa', 'contact'] as const;

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

const isUrl = (value: unknown): value is string => {
  if (typeof value !== 'string') return false;
  try {
    const url = new URL(value.trim());
    return (url.protocol === 'https:' || url.protocol === 'http:') && url.hostname !== '';
  } catch {
    return false;
  }
};

function sessionSettings(value: unknown, problems: string[]): SessionSettings | undefined {
  if (!isRecord(value)) {
    problems.push('session: expected an object');
    return undefined;
  }
  const minutes = (key: keyof SessionSettings) => {
    const field = value[key];
    if (typeof field !== 'number' || !Number.isInteger(field) || field <= 0)
      problems.push(`session.${key}: expected a positive whole number`);
    return Number(field);
  };
  return {
    idleTimeoutMinutes: minutes('idleTimeoutMinutes'),
    absoluteSessionMinutes: minutes('absoluteSessionMinutes'),
  };
}

/**
 * Checks /config.json against `contracts/config.ts`. The rules are applied by hand here
 * because loading zod before the sign-in page would cost about 14 KB gzip of its 108 KB
 * budget; test/web/config.test.ts proves this check and the contract's schema agree.
 * URLs must be http(s): they become request targets and link addresses.
 */
export function parseRuntimeConfig(value: unknown): RuntimeConfig {
  const problems: string[] = [];
  const text = (source: Record<string, unknown>, key: string, path = key) => {
    const field = source[key];
    if (typeof field !== 'string' || field.length === 0) problems.push(`${path}: expected a non-empty string`);
    return typeof field === 'string' ? field : '';
  };
  const url = (source: Record<string, unknown>, key: string, path = key) => {
    const field = source[key];
    if (!isUrl(field)) problems.push(`${path}: Invalid URL`);
    return typeof field === 'string' ? field : '';
  };
  const optionalUrl = (source: Record<string, unknown>, key: string) =>
    source[key] === undefined ? undefined : url(source, key);

  if (!isRecord(value)) throw new ConfigError('The configuration is invalid (config: expected an object).');
  const userPoolId = text(value, 'userPoolId');
  if (userPoolId && !userPoolId.includes('_')) problems.push('userPoolId: Invalid user pool id provided.');
  const functionsSource = isRecord(value.functions) ? value.functions : {};
  if (!isRecord(value.functions)) problems.push('functions: expected an object');
  const functions = Object.fromEntries(
    FUNCTION_NAMES.map((name) => [name, url(functionsSource, name, `functions.${name}`)]),
  ) as RuntimeConfig['functions'];
  const config: RuntimeConfig = {
    productName: text(value, 'productName'),
    region: text(value, 'region'),
    userPoolId,
    userPoolClientId: text(value, 'userPoolClientId'),
    graphqlUrl: url(value, 'graphqlUrl'),
    functions,
  };
  const cognitoEndpoint = optionalUrl(value, 'cognitoEndpoint');
  const marketingSiteUrl = optionalUrl(value, 'marketingSiteUrl');
  const session = value.session === undefined ? undefined : sessionSettings(value.session, problems);
  const flags: Pick<RuntimeConfig, 'rememberDevices' | 'passkeys'> = {};
  for (const key of ['rememberDevices', 'passkeys'] as const) {
    const flag = value[key];
    if (typeof flag === 'boolean') flags[key] = flag;
    else if (flag !== undefined) problems.push(`${key}: expected a boolean`);
  }
  if (problems.length > 0) throw new ConfigError(`The configuration is invalid (${problems.join('; ')}).`);
  return {
    ...config,
    ...(cognitoEndpoint ? { cognitoEndpoint } : {}),
    ...(marketingSiteUrl ? { marketingSiteUrl } : {}),
    ...(session ? { session } : {}),
    ...flags,
  };
}

/**
 * Fetches /config.json (written from the stack outputs) and checks it against the contract.
 * `no-store`: a redeploy may point the same site at new endpoints.
 */
export async function loadConfig(fetchImpl: typeof fetch = fetch): Promise<RuntimeConfig> {
  let response: Response;
  try {
    response = await fetchImpl('/config.json', { cache: 'no-store', headers: { accept: 'application/json' } });
  } catch {
    throw new ConfigError('The configuration could not be loaded: a network error has occurred.');
  }
  if (!response.ok) {
    throw new ConfigError(`The configuration could not be loaded: HTTP ${response.status}.`);
  }
  let body: unknown;
  try {
    body = await response.json();
  } catch {
    throw new ConfigError('The configuration is not valid JSON.');
  }
  return parseRuntimeConfig(body);
}

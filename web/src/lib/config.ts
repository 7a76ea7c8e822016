import { runtimeConfigSchema, type RuntimeConfig } from '../../../contracts/config.ts';

export type { RuntimeConfig };

/** Thrown when /config.json is missing or does not match the contract. */
export class ConfigError extends Error {
  override readonly name = 'ConfigError';
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
  const parsed = runtimeConfigSchema.safeParse(body);
  if (!parsed.success) {
    const problems = parsed.error.issues.map((issue) => `${issue.path.join('.') || 'config'}: ${issue.message}`);
    throw new ConfigError(`The configuration is invalid (${problems.join('; ')}).`);
  }
  return parsed.data;
}

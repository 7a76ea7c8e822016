import { ENV } from '#contracts/env.ts';
import { ConfigurationError } from './errors.ts';

type EnvName = (typeof ENV)[keyof typeof ENV];

const read = (name: EnvName): string | undefined => {
  const value = process.env[name]?.trim();
  return value === undefined || value === '' ? undefined : value;
};

/** A required variable; throws a ConfigurationError naming it when it is missing. */
export const requireEnv = (name: EnvName): string => {
  const value = read(name);
  if (value === undefined) throw new ConfigurationError([name]);
  return value;
};

/** An optional variable (endpoint overrides, defaults). */
export const optionalEnv = (name: EnvName): string | undefined => read(name);

/** Several required variables at once, so that the error names every missing one. */
export const requireEnvs = <const N extends readonly EnvName[]>(names: N): Record<N[number], string> => {
  const missing = names.filter((name) => read(name) === undefined);
  if (missing.length > 0) throw new ConfigurationError(missing);
  return Object.fromEntries(names.map((name) => [name, read(name)])) as Record<N[number], string>;
};

/** ALLOWED_ORIGINS: comma-separated site origins (CORS allow-list and embed AllowedDomains). */
export const allowedOrigins = (): string[] =>
  (read(ENV.allowedOrigins) ?? '')
    .split(',')
    .map((origin) => origin.trim())
    .filter((origin) => origin.length > 0);

export const region = (): string => requireEnv(ENV.region);

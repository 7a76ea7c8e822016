import { z } from 'zod';
import {
  DASHBOARD_FEATURES,
  DEFAULT_DASHBOARD_FEATURES,
  unknownDashboardFeatures,
  type DashboardFeature,
} from '#contracts/dashboard-features.ts';
import { MAX_EMBED_ORIGINS, embedOriginProblem } from '#contracts/embed-origins.ts';

/**
 * How configuration values are read from CDK context (lib/config-schema.ts): command-line values
 * arrive as strings, so numbers, booleans and lists are parsed from them, and an empty value
 * means "not set".
 */

/** Treats an empty command-line value (`-c key=`) as "not set". */
export const blankAsUnset = (value: unknown): unknown =>
  typeof value === 'string' && value.trim() === '' ? undefined : value;

export const numberFromText = (value: unknown): unknown => {
  const v = blankAsUnset(value);
  return typeof v === 'string' && /^-?\d+(\.\d+)?$/.test(v.trim()) ? Number(v) : v;
};

export const wholeNumber = (min: number, max: number, why: string) =>
  z
    .number({ message: `must be a whole number from ${min} to ${max}` })
    .int({ message: `must be a whole number from ${min} to ${max}` })
    .min(min, { message: `must be at least ${min} (${why})` })
    .max(max, { message: `must be at most ${max} (${why})` });

/** 'true' and 'false' as given on the command line, as booleans; anything else is left for the schema to refuse. */
const booleanFromText = (value: unknown) => {
  const v = blankAsUnset(value);
  return v === 'true' ? true : v === 'false' ? false : v;
};
const trueOrFalse = z.boolean({ message: 'must be true or false' });

/** A true/false setting with no default: unset stays undefined. */
export const optionalFlag = z.preprocess(booleanFromText, trueOrFalse.optional());

export const flag = (defaultValue: boolean) => z.preprocess(booleanFromText, trueOrFalse.default(defaultValue));

export const email = z.email({ message: 'must be an email address' }).transform((address) => address.toLowerCase());

/** A list given on the command line as `a,b,c` (context values are strings there); JSON arrays pass as they are. */
const commaSeparated = (value: unknown): unknown => {
  const v = blankAsUnset(value);
  return typeof v === 'string'
    ? v
        .split(',')
        .map((entry) => entry.trim())
        .filter(Boolean)
    : v;
};

export const optionalText = <T extends z.ZodType>(schema: T) => z.preprocess(blankAsUnset, schema.optional());

/**
 * A site origin: scheme and host, as browsers send it. The origins are also QuickSight's
 * AllowedDomains for embedding, so what QuickSight refuses there (IP addresses, http other
 * than localhost) is refused here, naming the value.
 */
const origin = z.string().superRefine((value, ctx) => {
  let shaped = false;
  try {
    shaped = new URL(value).origin === value;
  } catch {
    shaped = false;
  }
  const problem = shaped ? embedOriginProblem(value) : undefined;
  if (!shaped || problem) {
    ctx.addIssue({
      code: 'custom',
      message: shaped
        ? String(problem)
        : `each entry must be an origin such as https://portal.example.com (scheme and host, no path or trailing slash; http only for localhost): ${value} is not one`,
    });
  }
});

/** Names of RegisteredUserDashboardFeatureConfigurations (the SDK model's); an unknown name stops synth. */
export const dashboardFeatureList = z.preprocess(
  commaSeparated,
  z
    .array(z.string(), {
      message: 'must be a list of dashboard features (a JSON array, or comma-separated on the command line)',
    })
    .superRefine((names, ctx) => {
      const unknown = unknownDashboardFeatures(names);
      if (unknown.length > 0) {
        ctx.addIssue({
          code: 'custom',
          message: `${unknown.join(', ')} ${unknown.length === 1 ? 'is not a feature' : 'are not features'} of embedded dashboards; known: ${DASHBOARD_FEATURES.join(', ')}`,
        });
      }
    })
    .transform((names) => [...new Set(names)] as DashboardFeature[])
    .default([...DEFAULT_DASHBOARD_FEATURES]),
);

/** QuickSight embeds in at most 3 domains, and the site's own origin is always one of them. */
const MAX_EXTRA_ORIGINS = MAX_EMBED_ORIGINS - 1;

export const originList = z.preprocess(
  commaSeparated,
  z
    .array(origin, { message: 'must be a list of origins (a JSON array, or comma-separated on the command line)' })
    .max(MAX_EXTRA_ORIGINS, {
      message: `must list at most ${MAX_EXTRA_ORIGINS} origins: QuickSight embeds in at most ${MAX_EMBED_ORIGINS} domains, and the site's own origin is one of them`,
    })
    .default([]),
);

/** True when parsing found no problem with any of the given keys. */
export const valid =
  (...keys: string[]) =>
  (payload: z.core.ParsePayload): boolean =>
    !payload.issues.some((issue) => keys.includes(String(issue.path?.[0])));

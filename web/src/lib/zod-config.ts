/**
 * `z.config({ jitless: true })` for the whole SPA, set before any schema is built and without
 * loading zod on the sign-in page: zod keeps its settings in this global object (shared by
 * every copy of zod), and reads `jitless` when it builds an object schema.
 *
 * Why: zod compiles object parsers with `new Function` when it may, and merely probing for
 * that breaks the site's CSP (script-src 'self', no 'unsafe-eval'), which reports a
 * violation. The SPA parses small payloads: the interpreted parser is fast enough.
 */
const scope = globalThis as { __zod_globalConfig?: { jitless?: boolean } };
export const zodSettings = (scope.__zod_globalConfig ??= {});
zodSettings.jitless = true;

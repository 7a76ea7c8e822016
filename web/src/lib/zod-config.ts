import { config } from 'zod/v4/core';

/**
 * zod compiles object parsers with `new Function` when it may; probing for that breaks the
 * site's CSP (script-src 'self', no 'unsafe-eval') and reports a violation. The SPA parses
 * small payloads: the interpreted parser is fast enough. Runs before any schema is built.
 */
config({ jitless: true });

import { config } from 'zod/v4/core';
import * as z from 'zod/mini';
import { describe, expect, it, vi } from 'vitest';

describe('zod settings of the SPA', () => {
  it("turn zod's compiled parsers off, so nothing probes eval under the site's CSP", async () => {
    await import('#web/lib/zod-config.ts');
    expect(config().jitless).toBe(true);
    const probe = vi.spyOn(globalThis, 'Function');
    expect(z.object({ a: z.string() }).safeParse({ a: 'x' }).success).toBe(true);
    expect(probe).not.toHaveBeenCalled();
    probe.mockRestore();
  });
});

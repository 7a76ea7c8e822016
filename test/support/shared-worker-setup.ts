import { afterAll, vi } from 'vitest';

// Files of the local project share worker processes (isolate: false in vitest.config.ts): what one
// file stubs or fakes must not reach the next one the worker runs.
afterAll(() => {
  vi.useRealTimers();
  vi.unstubAllEnvs();
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

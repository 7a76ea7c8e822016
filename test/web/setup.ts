import '@testing-library/jest-dom/vitest';
import { cleanup } from '@testing-library/react';
import { configure } from '@testing-library/dom';
import { afterEach, vi } from 'vitest';

// The web files share worker processes (isolate: false in vitest.config.ts), so a module's state outlives a test:
// the toasts a test raised are dismissed after it, or the next test's Toaster would show them again.
// On a busy machine a screen can take longer than Testing Library's default second to appear.
configure({ asyncUtilTimeout: 5_000 });

afterEach(async () => {
  cleanup();
  // Imported here, after the test: importing sonner before a test's own modules changes its first render.
  const { toast } = await import('sonner');
  toast.dismiss();
  window.localStorage.clear();
  vi.restoreAllMocks();
  vi.unstubAllGlobals();
  vi.useRealTimers();
});

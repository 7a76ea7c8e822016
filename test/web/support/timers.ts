import { act } from '@testing-library/react';
import { vi } from 'vitest';

/**
 * Fake timeouts that still move with the wall clock (so user events and findBy queries work
 * as usual), for a test that then jumps over a page's own pause instead of sitting it out.
 * test/web/setup.ts puts the real timers back after each test.
 */
export function useSkippableTimeouts(): void {
  vi.useFakeTimers({ shouldAdvanceTime: true, toFake: ['setTimeout', 'clearTimeout'] });
}

/** Moves the fake clock on by `ms`, running the timeouts due and the renders they cause. */
export async function skip(ms: number): Promise<void> {
  await act(async () => {
    await vi.advanceTimersByTimeAsync(ms);
  });
}

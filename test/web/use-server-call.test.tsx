import { act, renderHook } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { useServerCall } from '#web/lib/use-server-call.ts';

/** A promise the test settles when it chooses. */
function deferred<T>() {
  let resolve!: (value: T) => void;
  let reject!: (error: unknown) => void;
  const promise = new Promise<T>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}

const describeFailure = (error: unknown) => `Failed: ${(error as Error).message}`;

describe('useServerCall', () => {
  it('is busy while the call is under way, then keeps its answer', async () => {
    const { result } = renderHook(() => useServerCall<'save', string, number>());
    expect(result.current.busy).toBe(false);
    const answer = deferred<number>();
    let outcome: Promise<number | undefined> | undefined;
    act(() => {
      outcome = result.current.run('save', () => answer.promise, { failure: describeFailure });
    });
    expect(result.current.busy).toBe(true);
    expect(result.current.isBusy('save')).toBe(true);
    expect(result.current.pending).toEqual(['save']);

    await act(async () => answer.resolve(42));
    expect(await outcome).toBe(42);
    expect(result.current.busy).toBe(false);
    expect(result.current.isBusy('save')).toBe(false);
    expect(result.current.result).toBe(42);
    expect(result.current.failure).toBeNull();
  });

  it('shows a failure as the caller describes it, clears it when the next call starts, and runs settled either way', async () => {
    const { result } = renderHook(() => useServerCall<'delete', string>());
    const settled = vi.fn();
    let outcome: unknown = 'not run';
    await act(async () => {
      outcome = await result.current.run('delete', () => Promise.reject(new Error('in use')), {
        failure: describeFailure,
        settled,
      });
    });
    expect(outcome).toBeUndefined();
    expect(result.current.failure).toBe('Failed: in use');
    expect(result.current.busy).toBe(false);
    expect(settled).toHaveBeenCalledTimes(1);

    const answer = deferred<string>();
    act(() => {
      void result.current.run('delete', () => answer.promise, { failure: describeFailure, settled });
    });
    expect(result.current.failure).toBeNull();
    await act(async () => answer.resolve('gone'));
    expect(result.current.result).toBe('gone');
    expect(settled).toHaveBeenCalledTimes(2);
  });

  it('leaves the failure empty when the caller reports the error itself', async () => {
    const { result } = renderHook(() => useServerCall<'export', never>());
    const reported: unknown[] = [];
    const error = new Error('offline');
    await act(async () => {
      await result.current.run('export', () => Promise.reject(error), {
        failure: (failure) => {
          reported.push(failure);
          return null;
        },
      });
    });
    expect(reported).toEqual([error]);
    expect(result.current.failure).toBeNull();
  });

  it('keeps a second call busy until it ends, whatever the first does meanwhile', async () => {
    const { result } = renderHook(() => useServerCall<string, string>());
    const first = deferred<void>();
    const second = deferred<void>();
    act(() => {
      void result.current.run('ann@example.com', () => first.promise, { failure: describeFailure });
      void result.current.run('bob@example.com', () => second.promise, { failure: describeFailure });
    });
    expect(result.current.pending).toEqual(['ann@example.com', 'bob@example.com']);

    await act(async () => first.reject(new Error('not allowed')));
    expect(result.current.isBusy('ann@example.com')).toBe(false);
    expect(result.current.isBusy('bob@example.com')).toBe(true);
    expect(result.current.busy).toBe(true);
    expect(result.current.failure).toBe('Failed: not allowed');

    await act(async () => second.resolve());
    expect(result.current.busy).toBe(false);
    // The second call succeeded after the first failed: the failure stays until a call starts.
    expect(result.current.failure).toBe('Failed: not allowed');
  });
});

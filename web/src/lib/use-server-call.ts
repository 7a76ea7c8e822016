import { useCallback, useState } from 'react';

export interface RunOptions<Fail> {
  /** What the failure shows for an error; null when the caller reports the error itself. */
  readonly failure: (error: unknown) => Fail | null;
  /** Runs once the call has ended, whatever its outcome, with its busy state cleared. */
  readonly settled?: () => void;
}

export interface ServerCall<Key, Fail, Result> {
  /** The keys of the calls under way, in the order they started. */
  readonly pending: readonly Key[];
  /** Whether any call is under way. */
  readonly busy: boolean;
  /** Whether a call with this key is under way; a new function only when `pending` changes. */
  readonly isBusy: (key: Key) => boolean;
  /** The failure of the last call that failed, cleared when a call starts. */
  readonly failure: Fail | null;
  /** What the last call that succeeded answered. */
  readonly result: Result | undefined;
  readonly setFailure: (failure: Fail | null) => void;
  /**
   * Runs `work` as the call `key`: busy while it is under way, its answer kept as `result`, its
   * error shown as `failure`. Resolves to the answer, or to undefined when the call failed; never
   * rejects. A second call may start while one is under way: each is busy until it ends.
   */
  readonly run: <T extends Result>(
    key: Key,
    work: () => Promise<T>,
    options: RunOptions<Fail>,
  ) => Promise<T | undefined>;
}

const NONE: readonly never[] = [];

const without = <Key>(keys: readonly Key[], key: Key): readonly Key[] => {
  const at = keys.indexOf(key);
  return at < 0 ? keys : [...keys.slice(0, at), ...keys.slice(at + 1)];
};

/**
 * The busy, failure and result state of a page's calls to the server, in place of a
 * `setBusy(true); try … catch … finally setBusy(false)` block around each. One failure is
 * shown for all the calls of the hook: the one that failed last.
 */
export function useServerCall<Key, Fail, Result = unknown>(): ServerCall<Key, Fail, Result> {
  const [pending, setPending] = useState<readonly Key[]>(NONE);
  const [failure, setFailure] = useState<Fail | null>(null);
  const [result, setResult] = useState<Result | undefined>(undefined);

  const run = useCallback(
    async <T extends Result>(
      key: Key,
      work: () => Promise<T>,
      { failure: describe, settled }: RunOptions<Fail>,
    ): Promise<T | undefined> => {
      setPending((current) => [...current, key]);
      setFailure(null);
      try {
        const answer = await work();
        setResult(answer);
        return answer;
      } catch (error) {
        const shown = describe(error);
        if (shown !== null) setFailure(shown);
        return undefined;
      } finally {
        setPending((current) => without(current, key));
        settled?.();
      }
    },
    [],
  );
  const isBusy = useCallback((key: Key) => pending.includes(key), [pending]);

  return { pending, busy: pending.length > 0, isBusy, failure, result, setFailure, run };
}

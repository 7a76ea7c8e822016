import { useCallback, useEffect, useState } from 'react';

export interface Resource<T> {
  /** The last loaded value; kept while a reload is under way. */
  readonly data: T | undefined;
  /** The failure of the last load, or null. */
  readonly error: unknown;
  readonly loading: boolean;
  reload(): void;
  /** Local update after a successful change, without another round trip. */
  update(change: (current: T) => T): void;
}

interface State<T> {
  readonly data: T | undefined;
  readonly error: unknown;
  readonly loading: boolean;
}

/**
 * Loads once on mount and again on `reload()`. `load` must be stable (useCallback); a
 * response arriving after unmount or after a newer load is ignored.
 */
export function useResource<T>(load: () => Promise<T>): Resource<T> {
  const [state, setState] = useState<State<T>>({ data: undefined, error: null, loading: true });
  const [generation, setGeneration] = useState(0);

  useEffect(() => {
    let current = true;
    load().then(
      (data) => {
        if (current) setState({ data, error: null, loading: false });
      },
      (error: unknown) => {
        if (current) setState((previous) => ({ data: previous.data, error, loading: false }));
      },
    );
    return () => {
      current = false;
    };
  }, [load, generation]);

  const reload = useCallback(() => {
    setState((previous) => (previous.loading ? previous : { ...previous, loading: true }));
    setGeneration((value) => value + 1);
  }, []);
  const update = useCallback((change: (current: T) => T) => {
    setState((previous) => (previous.data === undefined ? previous : { ...previous, data: change(previous.data) }));
  }, []);

  return { ...state, reload, update };
}

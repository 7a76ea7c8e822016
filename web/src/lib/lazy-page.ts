import { lazy, type ComponentType } from 'react';

/** A page chunk that has not arrived after this long is reported as failed (spec section 9). */
const CHUNK_LOAD_TIMEOUT_MS = 120_000;

/** React.lazy for a route module, failing after the chunk time-out instead of waiting forever. */
// `any` as in React.lazy's own signature: a page may take any props.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export function lazyPage<T extends ComponentType<any>>(load: () => Promise<{ default: T }>) {
  return lazy(
    () =>
      new Promise<{ default: T }>((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error('Loading the page timed out.')), CHUNK_LOAD_TIMEOUT_MS);
        load().then(
          (module) => {
            clearTimeout(timer);
            resolve(module);
          },
          (error: unknown) => {
            clearTimeout(timer);
            reject(error instanceof Error ? error : new Error('Loading the page failed.'));
          },
        );
      }),
  );
}

import { lazy, type ComponentType } from 'react';

/** A page chunk that has not arrived after this long is reported as failed (spec section 9). */
export const CHUNK_LOAD_TIMEOUT_MS = 120_000;

/** React.lazy for a route module, failing after the chunk time-out instead of waiting forever. */
export function lazyPage<P extends object>(load: () => Promise<{ default: ComponentType<P> }>) {
  return lazy(
    () =>
      new Promise<{ default: ComponentType<P> }>((resolve, reject) => {
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

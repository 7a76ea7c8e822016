import { onAws } from './target.ts';

/**
 * Polls until `done` holds: AWS works asynchronously (data sources, ingestions), and so does the
 * emulator for a data source's creation, within a fraction of a second.
 */
export async function eventually<T>(
  read: () => Promise<T>,
  done: (value: T) => boolean,
  timeoutMs = 120_000,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  const interval = onAws ? 2000 : 50;
  for (;;) {
    const value = await read();
    if (done(value) || Date.now() > deadline) return value;
    await new Promise((resolve) => setTimeout(resolve, interval));
  }
}

import { createHash } from 'node:crypto';

/**
 * Answers of the live-session check (Cognito GetUser) kept for a few seconds in the function
 * instance. GetUser counts against one per-account request rate shared by every function, and
 * one page view sends several requests with the same token; reusing a recent answer keeps
 * that cost at one call per token per period and instance. Only accepted sessions are kept:
 * a refusal is asked again next time.
 */

/** How long an accepted session is trusted without asking Cognito again. */
export const SESSION_CHECK_REUSE_SECONDS = 2;

/** Enough for every token one instance sees in a period; the oldest entry goes first beyond it. */
const SESSION_CACHE_MAX_ENTRIES = 1000;

export interface SessionCacheOptions {
  /** @default SESSION_CHECK_REUSE_SECONDS * 1000 */
  readonly ttlMs?: number;
  /** @default SESSION_CACHE_MAX_ENTRIES */
  readonly maxEntries?: number;
  /** Milliseconds since the epoch; replaced in tests. @default Date.now */
  readonly now?: () => number;
}

export interface SessionCache<T> {
  /** The answer kept for this token, if it is younger than the period. */
  get(token: string): T | undefined;
  set(token: string, value: T): void;
  /** Forgets every answer (a fresh instance). */
  clear(): void;
  readonly size: number;
}

/** Tokens are bearer secrets: only their hash is kept as a key. */
const keyOf = (token: string): string => createHash('sha256').update(token).digest('base64url');

export const createSessionCache = <T>({
  ttlMs = SESSION_CHECK_REUSE_SECONDS * 1000,
  maxEntries = SESSION_CACHE_MAX_ENTRIES,
  now = () => Date.now(),
}: SessionCacheOptions = {}): SessionCache<T> => {
  if (!(ttlMs >= 0) || !Number.isInteger(maxEntries) || maxEntries < 1) {
    throw new RangeError('A session cache needs ttlMs >= 0 and maxEntries >= 1');
  }
  // A Map iterates in insertion order, so its first key is the oldest entry.
  const entries = new Map<string, { readonly value: T; readonly expiresAt: number }>();

  const dropExpired = (at: number) => {
    for (const [key, entry] of entries) {
      if (entry.expiresAt > at) break;
      entries.delete(key);
    }
  };

  return {
    get(token) {
      const key = keyOf(token);
      const entry = entries.get(key);
      if (entry === undefined) return undefined;
      if (entry.expiresAt <= now()) {
        entries.delete(key);
        return undefined;
      }
      return entry.value;
    },
    set(token, value) {
      if (ttlMs === 0) return;
      const at = now();
      const key = keyOf(token);
      entries.delete(key);
      dropExpired(at);
      while (entries.size >= maxEntries) entries.delete(entries.keys().next().value as string);
      entries.set(key, { value, expiresAt: at + ttlMs });
    },
    clear() {
      entries.clear();
    },
    get size() {
      return entries.size;
    },
  };
};

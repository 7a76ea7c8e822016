import { useCallback, useEffect, useRef, useState } from 'react';
import type { EmbedSource } from '../../../../../contracts/embed.ts';
import { useApiClient } from '../../../lib/use-clients.ts';
import { useConfig } from '../../../lib/config-context.tsx';
import { fetchEmbedUrl, type EmbedSession } from '../api/embed-url.ts';

/** The URL is renewed this long before the embedded session ends. */
export const EMBED_RENEW_LEAD_MS = 60_000;
/** Never renew more often than this, whatever the server says. */
const MIN_RENEW_DELAY_MS = 30_000;

export type EmbedState =
  | { readonly status: 'idle' }
  | { readonly status: 'loading' }
  | { readonly status: 'error'; readonly message: string }
  | { readonly status: 'loaded'; readonly session: EmbedSession };

/**
 * The embed URL of one dashboard: fetched when the dashboard changes, on Refresh/Retry, and
 * again shortly before the embedded session ends, so an open page never expires. Each request
 * says why it is made: the page's first dashboard (`default`), another one (`switch`),
 * Refresh/Retry (`refresh`) or the timer (`renewal`).
 */
export function useEmbedSession(dashboardId: string | null) {
  const client = useApiClient();
  const { functions } = useConfig();
  const [state, setState] = useState<EmbedState>({ status: 'idle' });
  const [generation, setGeneration] = useState(0);
  const previous = useRef<{ dashboardId: string; generation: number; source: EmbedSource } | null>(null);

  const reload = useCallback(() => setGeneration((n) => n + 1), []);

  useEffect(() => {
    if (!dashboardId) return;
    let active = true;
    let renewTimer: ReturnType<typeof setTimeout> | undefined;
    const before = previous.current;
    // A run with the same dashboard and generation (a remount) keeps the reason of the one before.
    const source: EmbedSource =
      before === null ? 'default' : before.dashboardId !== dashboardId ? 'switch' : before.generation !== generation ? 'refresh' : before.source;
    previous.current = { dashboardId, generation, source };
    const load = async (renewal: boolean) => {
      // A renewal keeps the current frame until the new URL is there.
      if (!renewal) setState({ status: 'loading' });
      try {
        const session = await fetchEmbedUrl(client, functions.embed, dashboardId, renewal ? 'renewal' : source);
        if (!active) return;
        setState({ status: 'loaded', session });
        const delay = Math.max(session.expiresAt - Date.now() - EMBED_RENEW_LEAD_MS, MIN_RENEW_DELAY_MS);
        renewTimer = setTimeout(() => void load(true), delay);
      } catch (error) {
        if (active) setState({ status: 'error', message: error instanceof Error ? error.message : String(error) });
      }
    };
    void load(false);
    return () => {
      active = false;
      clearTimeout(renewTimer);
    };
  }, [client, functions.embed, dashboardId, generation]);

  return { state: dashboardId ? state : ({ status: 'idle' } as const), reload };
}

import { useCallback, useEffect, useRef, useState } from 'react';
import type { EmbedSource } from '#contracts/embed.ts';
import { useApiClient } from '#web/lib/use-clients.ts';
import { useConfig } from '#web/lib/config-context.tsx';
import { fetchEmbedUrl, type EmbedSession } from '../api/embed-url.ts';
import type { FrameError } from './embedded-dashboard.tsx';

/** The URL is renewed this long before the embedded session ends. */
const EMBED_RENEW_LEAD_MS = 60_000;
/** Never renew more often than this, whatever the server says. */
const MIN_RENEW_DELAY_MS = 30_000;

/** A frame that has not reported its content this long after it was handed its URL has failed. */
const CONTENT_TIMEOUT_MS = 30_000;
const CONTENT_TIMEOUT_MESSAGE = 'The dashboard did not finish loading within 30 seconds.';

export type EmbedState =
  | { readonly status: 'idle' }
  | { readonly status: 'loading' }
  | {
      readonly status: 'error';
      readonly message: string;
      /** The embed pages' origin when the frame itself failed (as opposed to the embed URL request). */
      readonly frameOrigin?: string;
    }
  | { readonly status: 'loaded'; readonly session: EmbedSession; readonly contentLoaded: boolean };

/** Embed URLs the frame rejects are requested again this many times by themselves; then the user has Retry. */
const AUTOMATIC_RENEWALS = 1;

/**
 * The embed URL of one dashboard: fetched when the dashboard changes, on Refresh/Retry, and
 * again shortly before the embedded session ends, so an open page never expires. A URL the
 * frame rejects is replaced once by itself; a second rejection shows the error. Each request
 * says why it is made: the page's first dashboard (`default`), another one (`switch`),
 * Refresh/Retry (`refresh`) or the timer (`renewal`).
 */
export function useEmbedSession(dashboardId: string | null) {
  const client = useApiClient();
  const { functions } = useConfig();
  const [state, setState] = useState<EmbedState>({ status: 'idle' });
  const [generation, setGeneration] = useState(0);
  const previous = useRef<{ dashboardId: string; generation: number; source: EmbedSource } | null>(null);
  const renewalsLeft = useRef(AUTOMATIC_RENEWALS);

  const reload = useCallback(() => {
    renewalsLeft.current = AUTOMATIC_RENEWALS;
    setGeneration((n) => n + 1);
  }, []);

  const contentLoaded = useCallback(() => {
    renewalsLeft.current = AUTOMATIC_RENEWALS;
    setState((current) =>
      current.status === 'loaded' && !current.contentLoaded ? { ...current, contentLoaded: true } : current,
    );
  }, []);

  const frameFailed = useCallback((error: FrameError) => {
    if (error.renewable && renewalsLeft.current > 0) {
      renewalsLeft.current -= 1;
      setGeneration((n) => n + 1);
      return;
    }
    setState((current) => ({
      status: 'error',
      message: error.message,
      ...(current.status === 'loaded' ? { frameOrigin: new URL(current.session.url).origin } : {}),
    }));
  }, []);

  // No spinner without end: a frame that never reports its content (a page the browser would
  // not load, a URL already used) becomes the error panel with Retry.
  const waitingFor = state.status === 'loaded' && !state.contentLoaded ? state.session.url : null;
  useEffect(() => {
    if (waitingFor === null) return;
    const timer = setTimeout(
      () => setState({ status: 'error', message: CONTENT_TIMEOUT_MESSAGE, frameOrigin: new URL(waitingFor).origin }),
      CONTENT_TIMEOUT_MS,
    );
    return () => clearTimeout(timer);
  }, [waitingFor]);

  useEffect(() => {
    if (!dashboardId) return;
    let active = true;
    let renewTimer: ReturnType<typeof setTimeout> | undefined;
    const before = previous.current;
    // A run with the same dashboard and generation (a remount) keeps the reason of the one before.
    const source: EmbedSource =
      before === null
        ? 'default'
        : before.dashboardId !== dashboardId
          ? 'switch'
          : before.generation !== generation
            ? 'refresh'
            : before.source;
    previous.current = { dashboardId, generation, source };
    const load = async (renewal: boolean) => {
      // A renewal keeps the current frame until the new URL is there.
      if (!renewal) setState({ status: 'loading' });
      try {
        const session = await fetchEmbedUrl(client, functions.embed, dashboardId, renewal ? 'renewal' : source);
        if (!active) return;
        // A renewal swaps the frame for one that carries on where the reader was (state
        // persistence): it stays in sight; a new dashboard waits for its content.
        setState((current) => ({
          status: 'loaded',
          session,
          contentLoaded: renewal && current.status === 'loaded' && current.contentLoaded,
        }));
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

  return { state: dashboardId ? state : ({ status: 'idle' } as const), reload, contentLoaded, frameFailed };
}

import { useEffect, useRef } from 'react';
import type { DashboardExperience, EmbeddingEvents } from 'amazon-quicksight-embedding-sdk';
import { loadEmbeddingSdk } from './sdk-loader.ts';
import {
  FRAME_NOT_CREATED_MESSAGE,
  FRAME_SILENT_MESSAGE,
  SDK_LOAD_FAILED_MESSAGE,
  frameErrorMessage,
  guardFrameOrigin,
} from './frame-messages.ts';

const FRAME_TITLE = 'QuickSight Analytics Dashboard';

export interface FrameError {
  readonly message: string;
  /** Whether a new embed URL may help (the frame refused this one), as opposed to the viewer failing to load. */
  readonly renewable: boolean;
}

export interface EmbeddedDashboardProps {
  readonly url: string;
  readonly hidden: boolean;
  readonly onContentLoaded: () => void;
  readonly onError: (error: FrameError) => void;
  readonly onExperience: (experience: DashboardExperience | null) => void;
  /** The reader changed what the frame shows (a control, a sheet, a filter): there is something to undo. */
  readonly onChanged: () => void;
  /**
   * How long a loaded frame may stay silent before it counts as failed. Local mode sets it: its
   * embed pages answer at once unless the browser refused them (an untrusted certificate).
   */
  readonly silenceLimitMs?: number;
}

/** What the SDK reports when the reader changes the dashboard in the frame. */
const CHANGE_EVENTS = new Set<string>(['PARAMETERS_CHANGED', 'SELECTED_SHEET_CHANGED']);

const messageOf = (event: EmbeddingEvents): Record<string, unknown> =>
  typeof event.message === 'object' && event.message !== null ? (event.message as Record<string, unknown>) : {};

/**
 * The dashboard embedded through QuickSight's embedding SDK: the SDK makes the frame (and a
 * hidden control frame), the portal titles them, listens for content loaded and errors, and
 * lets only messages from the embed URL's origin reach the SDK.
 */
export function EmbeddedDashboard({
  url,
  hidden,
  onContentLoaded,
  onError,
  onExperience,
  onChanged,
  silenceLimitMs,
}: EmbeddedDashboardProps) {
  const container = useRef<HTMLDivElement>(null);
  const callbacks = useRef({ onContentLoaded, onError, onExperience, onChanged });
  useEffect(() => {
    callbacks.current = { onContentLoaded, onError, onExperience, onChanged };
  });

  useEffect(() => {
    const element = container.current;
    if (!element) return;
    let active = true;
    // Events before the first content are the frame setting itself up, not the reader's changes.
    let contentShown = false;
    const origin = new URL(url).origin;
    const removeGuard = guardFrameOrigin(window, origin);
    // Whether the embed pages have said anything: a frame showing the browser's error page never does.
    let heard = false;
    let silence: ReturnType<typeof setTimeout> | undefined;
    const listen = (event: MessageEvent) => {
      if (event.origin === origin) heard = true;
    };
    window.addEventListener('message', listen);
    const bodyFramesBefore = new Set(document.body.querySelectorAll(':scope > iframe'));
    const fail = (error: FrameError) => {
      if (active) callbacks.current.onError(error);
    };
    void (async () => {
      let sdk: Awaited<ReturnType<typeof loadEmbeddingSdk>>;
      try {
        sdk = await loadEmbeddingSdk();
      } catch {
        fail({ message: SDK_LOAD_FAILED_MESSAGE, renewable: false });
        return;
      }
      if (!active) return;
      try {
        const context = await sdk.createEmbeddingContext();
        const experience = await context.embedDashboard(
          {
            url,
            container: element,
            className: 'embed-frame',
            onChange: (event) => {
              if (event.eventName === 'FRAME_NOT_CREATED')
                fail({ message: FRAME_NOT_CREATED_MESSAGE, renewable: true });
              if (event.eventName === 'FRAME_LOADED' && silenceLimitMs !== undefined) {
                clearTimeout(silence);
                silence = setTimeout(() => {
                  if (!heard) fail({ message: FRAME_SILENT_MESSAGE, renewable: false });
                }, silenceLimitMs);
              }
            },
          },
          {
            onMessage: (event) => {
              if (!active) return;
              if (event.eventName === 'CONTENT_LOADED') {
                // The frame shows new content of its own accord after a change the reader made in it.
                if (contentShown) callbacks.current.onChanged();
                contentShown = true;
                callbacks.current.onContentLoaded();
              }
              if (contentShown && CHANGE_EVENTS.has(event.eventName)) callbacks.current.onChanged();
              if (event.eventName === 'ERROR_OCCURRED')
                fail({ message: frameErrorMessage(messageOf(event).errorCode), renewable: true });
            },
          },
        );
        if (!active) return;
        element.querySelector('iframe')?.setAttribute('title', FRAME_TITLE);
        for (const frame of document.body.querySelectorAll(':scope > iframe')) {
          if (bodyFramesBefore.has(frame)) continue;
          frame.setAttribute('title', 'QuickSight embedding control');
          frame.setAttribute('aria-hidden', 'true');
          frame.setAttribute('tabindex', '-1');
        }
        callbacks.current.onExperience(experience);
      } catch (error) {
        fail({ message: error instanceof Error ? error.message : String(error), renewable: true });
      }
    })();
    return () => {
      active = false;
      clearTimeout(silence);
      window.removeEventListener('message', listen);
      removeGuard();
      callbacks.current.onExperience(null);
      element.replaceChildren();
      // The SDK leaves its control frame in the body; each embedding makes its own.
      for (const frame of document.body.querySelectorAll(':scope > iframe'))
        if (!bodyFramesBefore.has(frame)) frame.remove();
    };
  }, [url, silenceLimitMs]);

  return (
    <div ref={container} className={hidden ? 'embed-container is-loading' : 'embed-container'} aria-busy={hidden} />
  );
}

import { html, type SafeHtml } from '#emulators/sample-dashboards/render/html.ts';

/**
 * The frame side of QuickSight's embedding SDK (amazon-quicksight-embedding-sdk v2), as its
 * published source defines the protocol:
 * - the SDK opens a zero-size control frame at `<host>/embed/<session>/embedControl` and the
 *   experience frame at the embed URL, both with `punyCodeEmbedOrigin` (the embedding page's
 *   origin, punycode-encoded with a trailing slash), `contextId`, `discriminator` and
 *   `sdkVersion` in the query and the initial parameters as `#p.<name>=<value>`;
 * - it posts `{eventName, eventTarget, eventId, timestamp, version, message}` to the control
 *   frame; the control frame relays it to the experience frame it targets;
 * - frames post events (`{eventName, eventTarget, message}`) and answers (`{eventId, message}`,
 *   `message` `{success: true}`, `{success: false, errorCode}` or the data) to the embedding page.
 * Both sides check origins: the frames take messages only from the embedding origin, and the
 * embedding origin must be one of the session's AllowedDomains.
 */

/** RFC 3492 decoding, for `punyCodeEmbedOrigin`. */
export function punycodeDecode(input: string): string {
  const base = 36;
  const [tMin, tMax, skew, damp, initialBias, initialN] = [1, 26, 38, 700, 72, 128];
  const adapt = (delta: number, points: number, first: boolean) => {
    let d = first ? Math.floor(delta / damp) : delta >> 1;
    d += Math.floor(d / points);
    let k = 0;
    while (d > ((base - tMin) * tMax) >> 1) {
      d = Math.floor(d / (base - tMin));
      k += base;
    }
    return k + Math.floor(((base - tMin + 1) * d) / (d + skew));
  };
  const digit = (code: number) =>
    code >= 48 && code < 58
      ? code - 22
      : code >= 65 && code < 91
        ? code - 65
        : code >= 97 && code < 123
          ? code - 97
          : base;
  const delimiter = input.lastIndexOf('-');
  const output = [...(delimiter > 0 ? input.slice(0, delimiter) : '')].map((c) => c.codePointAt(0) ?? 0);
  if (output.some((code) => code >= 0x80)) throw new Error('not punycode');
  let [n, i, bias] = [initialN, 0, initialBias];
  for (let index = delimiter > 0 ? delimiter + 1 : 0; index < input.length;) {
    const oldI = i;
    for (let w = 1, k = base; ; k += base) {
      if (index >= input.length) throw new Error('not punycode');
      const value = digit(input.charCodeAt(index++));
      if (value >= base) throw new Error('not punycode');
      i += value * w;
      const t = k <= bias ? tMin : k >= bias + tMax ? tMax : k - bias;
      if (value < t) break;
      w *= base - t;
    }
    bias = adapt(i - oldI, output.length + 1, oldI === 0);
    n += Math.floor(i / (output.length + 1));
    i %= output.length + 1;
    output.splice(i++, 0, n);
  }
  return String.fromCodePoint(...output);
}

/** Whether `origin` is one of the AllowedDomains (scheme and host; `*.` covers subdomains). */
function originAllowed(origin: string, allowedDomains: readonly string[]): boolean {
  return allowedDomains.some((allowed) => {
    if (allowed === origin) return true;
    const wildcard = /^(https?:\/\/)\*\.(.+)$/.exec(allowed);
    if (!wildcard) return false;
    return origin.startsWith(wildcard[1] ?? '') && origin.endsWith(`.${wildcard[2] ?? ''}`);
  });
}

export interface EmbedFrameContext {
  /** The embedding page's origin, one of the session's AllowedDomains. */
  readonly embedOrigin: string;
  readonly contextId: string;
  readonly discriminator: number;
}

/**
 * The SDK's query parameters of a frame, when they name an embedding origin the session allows;
 * otherwise undefined (the page was not opened by the SDK, or by a page it must not talk to).
 */
export function embedFrameContext(
  query: URLSearchParams,
  allowedDomains: readonly string[],
): EmbedFrameContext | undefined {
  const encoded = query.get('punyCodeEmbedOrigin');
  const contextId = query.get('contextId');
  const discriminator = Number(query.get('discriminator') ?? '0');
  if (
    !encoded ||
    !contextId ||
    !/^[\w-]{1,64}$/.test(contextId) ||
    !Number.isInteger(discriminator) ||
    discriminator < 0
  )
    return undefined;
  let origin: string;
  try {
    origin = new URL(punycodeDecode(encoded)).origin;
  } catch {
    return undefined;
  }
  return originAllowed(origin, allowedDomains) ? { embedOrigin: origin, contextId, discriminator } : undefined;
}

/** What the frame script reads: who it talks to, and what it is. */
export interface FrameDescription extends EmbedFrameContext {
  readonly role: 'control' | 'dashboard' | 'error';
  readonly dashboardId?: string;
  readonly title?: string;
  /** ERROR_OCCURRED's errorCode on an error page. */
  readonly errorCode?: string;
  /** Parameters the dashboard declares, with their current values. */
  readonly parameters?: readonly { Name: string; Values: string[] }[];
}

export function frameHead(description: FrameDescription): SafeHtml {
  return html`<meta name="qs-embed-frame" content="${JSON.stringify(description)}"><script src="/assets/embed-frame.js" defer></script>`;
}

/** The zero-size control frame's page: a relay with no content. */
export function controlPage(context: EmbedFrameContext): string {
  return `<!doctype html>\n${html`<html lang="en"><head><meta charset="utf-8"><title>QuickSight embedding control</title>${frameHead({ ...context, role: 'control' })}</head><body></body></html>`}`;
}

/**
 * The script of the control and experience frames (served as /assets/embed-frame.js, so the
 * pages' policy allows scripts from 'self' only).
 */
export const EMBED_FRAME_SCRIPT = String.raw`(() => {
  'use strict';
  const meta = document.querySelector('meta[name="qs-embed-frame"]');
  if (!meta) return;
  const frame = JSON.parse(meta.getAttribute('content'));
  const channel = new BroadcastChannel('qs-embed:' + frame.contextId);
  const SDK_PARAMS = ['punyCodeEmbedOrigin', 'contextId', 'discriminator', 'sdkVersion', 'fitSheetToWidth', 'footerPaddingEnabled',
    'printEnabled', 'undoRedoDisabled', 'resetDisabled', 'locale', 'sheetId', 'showBookmarksIcon', 'showThresholdAlertsIcon',
    'showSchedulingIcon', 'showExecutiveSummaryIcon', 'showRecentSnapshotsIcon'];

  if (frame.role === 'control') {
    window.addEventListener('message', (event) => {
      if (event.origin !== frame.embedOrigin || event.source !== window.parent) return;
      const data = event.data;
      if (!data || typeof data.eventName !== 'string' || !data.eventTarget) return;
      channel.postMessage(data);
    });
    return;
  }

  const target = { experienceType: 'DASHBOARD', dashboardId: frame.dashboardId, contextId: frame.contextId, discriminator: frame.discriminator };
  const post = (message) => window.parent.postMessage(message, frame.embedOrigin);
  const emit = (eventName, message) => post({ eventName, eventTarget: target, message });
  const answer = (request, message) => post({ eventName: request.eventName, eventId: request.eventId, message });

  if (frame.role === 'error') {
    emit('ERROR_OCCURRED', { errorCode: frame.errorCode });
    return;
  }

  const current = new URL(window.location.href);
  current.searchParams.delete('code');
  const viewOf = (url) => {
    const view = new URLSearchParams();
    for (const [key, value] of url.searchParams) if (!SDK_PARAMS.includes(key)) view.append(key, value);
    return view;
  };
  const sdkQuery = () => {
    const query = new URLSearchParams();
    for (const [key, value] of current.searchParams) if (SDK_PARAMS.includes(key)) query.append(key, value);
    return query;
  };
  // Undo and redo survive the frame's reloads in its URL's fragment (never sent to the server):
  // frames of another site may not have storage.
  const fragment = new URLSearchParams(window.location.hash.slice(1));
  const history = (() => {
    try { return JSON.parse(fragment.get('qsHistory')) || { undo: [], redo: [] }; } catch { return { undo: [], redo: [] }; }
  })();
  const go = (view, note) => {
    const query = sdkQuery();
    for (const [key, value] of view) query.append(key, value);
    const hash = new URLSearchParams({ qsHistory: JSON.stringify(history) });
    if (note) hash.set('qsNote', note);
    const address = current.pathname + '?' + query.toString();
    if (address === window.location.pathname + window.location.search) {
      window.location.hash = hash.toString();
      window.location.reload();
    } else {
      window.location.replace(address + '#' + hash.toString());
    }
  };
  const change = (view, note) => {
    history.undo.push(viewOf(current).toString());
    history.redo = [];
    go(view, note);
  };

  // Initial parameters come after '#' (p.<name>=<value>); the server draws from the query.
  const initial = [...fragment].filter(([key]) => key.startsWith('p.'));
  if (initial.length > 0) {
    const view = viewOf(current);
    for (const name of new Set(initial.map(([key]) => key))) view.delete(name);
    for (const [key, value] of initial) view.append(key, value);
    go(view, 'parameters');
    return;
  }
  // The one-time code is spent: links and reloads go on with the session cookie.
  if (window.location.search.includes('code=')) window.history.replaceState(null, '', current.pathname + current.search + window.location.hash);

  document.addEventListener('click', (event) => {
    const link = event.target instanceof Element ? event.target.closest('a[href^="?"]') : null;
    if (!link) return;
    event.preventDefault();
    change(new URLSearchParams(link.getAttribute('href').slice(1)));
  });

  const status = document.getElementById('frame-status');
  const say = (text) => { if (status) status.textContent = text; };
  const panes = {
    TOGGLE_BOOKMARKS_PANE: 'Bookmarks',
    TOGGLE_SCHEDULING_PANE: 'Schedules',
    TOGGLE_THRESHOLD_ALERTS_PANE: 'ThresholdAlerts',
    TOGGLE_RECENT_SNAPSHOTS_PANE: 'RecentSnapshots',
    TOGGLE_EXECUTIVE_SUMMARY_PANE: 'AmazonQInQuickSight',
  };
  const declared = frame.parameters || [];
  const handlers = {
    INITIATE_PRINT: () => { say('Print requested'); setTimeout(() => window.print(), 0); return { success: true }; },
    RESET: () => {
      history.undo = [];
      history.redo = [];
      setTimeout(() => go(new URLSearchParams(), declared.length > 0 ? 'parameters' : undefined), 0);
      return { success: true };
    },
    UNDO: () => {
      const previous = history.undo.pop();
      if (previous === undefined) return { success: false, errorCode: 'NothingToUndo' };
      history.redo.push(viewOf(current).toString());
      setTimeout(() => go(new URLSearchParams(previous), 'parameters'), 0);
      return { success: true };
    },
    REDO: () => {
      const next = history.redo.pop();
      if (next === undefined) return { success: false, errorCode: 'NothingToRedo' };
      history.undo.push(viewOf(current).toString());
      setTimeout(() => go(new URLSearchParams(next), 'parameters'), 0);
      return { success: true };
    },
    GET_PARAMETERS: () => declared,
    SET_PARAMETERS: (message) => {
      if (!Array.isArray(message)) return { success: false, errorCode: 'InvalidParameters' };
      const view = viewOf(current);
      for (const parameter of message) {
        if (!parameter || !declared.some((d) => d.Name === parameter.Name) || !Array.isArray(parameter.Values)) {
          return { success: false, errorCode: 'InvalidParameters' };
        }
        view.delete('p.' + parameter.Name);
        for (const value of parameter.Values) view.append('p.' + parameter.Name, String(value));
      }
      setTimeout(() => change(view, 'parameters'), 0);
      return { success: true };
    },
  };
  for (const [eventName, feature] of Object.entries(panes)) {
    handlers[eventName] = () => {
      const pane = document.querySelector('details[data-feature="' + feature + '"]');
      if (!pane) return { success: false, errorCode: 'FeatureNotEnabled' };
      pane.open = !pane.open;
      return { success: true };
    };
  }

  channel.addEventListener('message', (event) => {
    const request = event.data;
    const to = request && request.eventTarget;
    if (!to || to.experienceType !== 'DASHBOARD' || to.dashboardId !== frame.dashboardId || Number(to.discriminator) !== frame.discriminator) return;
    if (request.eventName === 'ACKNOWLEDGE') return;
    const handler = handlers[request.eventName];
    answer(request, handler ? handler(request.message) : { success: false, errorCode: 'UnsupportedEvent' });
  });

  const loaded = () => {
    emit('EXPERIENCE_INITIALIZED', {});
    if (declared.length > 0) emit('PARAMETERS_LOADED', undefined);
    if (declared.length > 0 && fragment.get('qsNote') === 'parameters') emit('PARAMETERS_CHANGED', { changedParameters: declared });
    emit('CONTENT_LOADED', { title: frame.title });
    emit('SIZE_CHANGED', { height: String(document.documentElement.scrollHeight) });
  };
  if (document.readyState === 'complete') loaded();
  else window.addEventListener('load', loaded, { once: true });
})();
`;

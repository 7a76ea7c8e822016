import type { IncomingMessage, ServerResponse } from 'node:http';
import type { TLSSocket } from 'node:tls';
import { findSampleDashboard, findSampleDataSet, type SampleDashboard } from '#emulators/sample-dashboards/catalog.ts';
import { type AccountScope } from './arns.ts';
import { EMBED_COOKIE, embedPath, loadEmbed, type EmbedOutcome } from './embed-sessions.ts';
import type { StateStore } from './persistence.ts';
import { visibleFacts, type SampleRowLevelSecurity } from './samples.ts';
import { parseViewState } from '#emulators/sample-dashboards/render/layout.ts';
import {
  consolePage,
  dashboardPage,
  landingPage,
  linkExpiredPage,
  noAccessPage,
  notFoundPage,
  sessionEndedPage,
} from './pages.ts';
import { DASHBOARD_CSS } from '#emulators/sample-dashboards/render/styles.ts';
import {
  controlPage,
  EMBED_FRAME_SCRIPT,
  embedFrameContext,
  frameHead,
  type EmbedFrameContext,
} from './embed-frame.ts';
import type { SafeHtml } from '#emulators/sample-dashboards/render/html.ts';

/** The browser side of the emulator: embedded dashboards, the console link page, the stylesheet. */

export interface WebContext {
  readonly scope: AccountScope;
  readonly store: StateStore;
  readonly now: () => number;
  readonly baseUrl: string;
  readonly rowLevelSecurity?: SampleRowLevelSecurity;
}

/**
 * Scripts and styles from 'self' only (no inline ones), nothing from elsewhere; `frameAncestors` decides who may
 * frame.
 */
function pageSecurityHeaders(frameAncestors: readonly string[]): Record<string, string> {
  const ancestors = frameAncestors.length > 0 ? frameAncestors.join(' ') : "'none'";
  return {
    'Content-Security-Policy': [
      "default-src 'none'",
      "script-src 'self'",
      "style-src 'self'",
      "img-src 'self' data:",
      "form-action 'self'",
      "base-uri 'none'",
      `frame-ancestors ${ancestors}`,
    ].join('; '),
    'X-Content-Type-Options': 'nosniff',
    'Referrer-Policy': 'no-referrer',
    'Cache-Control': 'no-store',
  };
}

function sendPage(
  response: ServerResponse,
  status: number,
  body: string,
  frameAncestors: readonly string[] = [],
  extraHeaders: Record<string, string | string[]> = {},
): void {
  response.writeHead(status, {
    'Content-Type': 'text/html; charset=utf-8',
    ...pageSecurityHeaders(frameAncestors),
    ...extraHeaders,
  });
  response.end(body);
}

function readCookie(request: IncomingMessage, name: string): string | undefined {
  for (const part of (request.headers.cookie ?? '').split(';')) {
    const [key, ...value] = part.trim().split('=');
    if (key === name) return value.join('=');
  }
  return undefined;
}

function decodeSegment(segment: string): string | undefined {
  try {
    return decodeURIComponent(segment);
  } catch {
    return undefined;
  }
}

/**
 * The page of each refusal and the errorCode its frame reports through the SDK: `Forbidden`
 * for a link whose code expired or was used, `Unauthorized` for a session that ended, as the
 * SDK's documentation lists them (README, "Dashboard Embedding", ERROR_OCCURRED); the other
 * two name what happened.
 */
const REFUSALS: Record<
  Exclude<EmbedOutcome['kind'], 'open'>,
  { status: number; errorCode: string; page: (head?: SafeHtml) => string }
> = {
  'link-expired': { status: 403, errorCode: 'Forbidden', page: linkExpiredPage },
  'session-ended': { status: 403, errorCode: 'Unauthorized', page: sessionEndedPage },
  'no-access': { status: 403, errorCode: 'AccessDenied', page: noAccessPage },
  'not-found': { status: 404, errorCode: 'NotFound', page: notFoundPage },
};

/** Dashboards over a company-scoped dataset declare the `company` parameter. */
const declaresCompany = (dashboard: SampleDashboard) =>
  dashboard.dataSetIds.some((id) => findSampleDataSet(id)?.companyScoped === true);

/**
 * The embed session cookie. Over https (the SDK's frames) it is SameSite=None, Secure and
 * Partitioned, as the portal's site frames it from another site; over plain http (local
 * mode's site host on another port) SameSite=Lax keeps it within the same site.
 */
function cookieAttributes(request: IncomingMessage): string {
  return (request.socket as Partial<TLSSocket>).encrypted ? 'SameSite=None; Secure; Partitioned' : 'SameSite=Lax';
}

const EMBED_ROUTE = /^\/embed\/([^/]+)\/dashboards\/([^/]+)\/?$/;
const CONTROL_ROUTE = /^\/embed\/([^/]+)\/embedControl\/?$/;
const CONSOLE_ROUTE = /^\/sn\/dashboards\/([^/]+)\/?$/;

/** Answers GET/HEAD requests outside the API; returns false for paths that are not pages. */
export async function handlePage(
  request: IncomingMessage,
  response: ServerResponse,
  url: URL,
  context: WebContext,
): Promise<boolean> {
  if (url.pathname === '/assets/dashboard.css') {
    response.writeHead(200, {
      'Content-Type': 'text/css; charset=utf-8',
      'Cache-Control': 'public, max-age=3600',
      'X-Content-Type-Options': 'nosniff',
    });
    response.end(DASHBOARD_CSS);
    return true;
  }
  if (url.pathname === '/assets/embed-frame.js') {
    response.writeHead(200, {
      'Content-Type': 'text/javascript; charset=utf-8',
      'Cache-Control': 'public, max-age=3600',
      'X-Content-Type-Options': 'nosniff',
    });
    response.end(EMBED_FRAME_SCRIPT);
    return true;
  }
  const controlMatch = CONTROL_ROUTE.exec(url.pathname);
  if (controlMatch) {
    // The control frame holds no data: it relays the SDK's messages, for an allowed embedding page only.
    const session = context.store.state.embedSession(decodeSegment(controlMatch[1] ?? '') ?? '');
    const frame = session && embedFrameContext(url.searchParams, session.allowedDomains);
    if (frame) sendPage(response, 200, controlPage(frame), session.allowedDomains);
    else sendPage(response, 404, notFoundPage(), session?.allowedDomains ?? []);
    return true;
  }
  if (url.pathname === '/favicon.ico') {
    // Browsers ask for it on every page; answering keeps their consoles free of 404s.
    response.writeHead(204, { 'Cache-Control': 'public, max-age=86400' });
    response.end();
    return true;
  }
  if (url.pathname === '/') {
    sendPage(response, 200, landingPage(context.baseUrl));
    return true;
  }
  const consoleMatch = CONSOLE_ROUTE.exec(url.pathname);
  if (consoleMatch) {
    const dashboard = findSampleDashboard(decodeSegment(consoleMatch[1] ?? '') ?? '');
    if (dashboard) sendPage(response, 200, consolePage(dashboard));
    else sendPage(response, 404, notFoundPage());
    return true;
  }
  const embedMatch = EMBED_ROUTE.exec(url.pathname);
  if (!embedMatch) return false;
  if (request.method !== 'GET') {
    // Only a real load may spend the one-time code; a HEAD from a link checker must not.
    response.writeHead(405, { Allow: 'GET', 'Cache-Control': 'no-store' });
    response.end();
    return true;
  }

  const sessionId = decodeSegment(embedMatch[1] ?? '') ?? '';
  const dashboardId = decodeSegment(embedMatch[2] ?? '') ?? '';
  const outcome = await loadEmbed(context.store, context.scope, context.now(), {
    sessionId,
    dashboardId,
    code: url.searchParams.get('code'),
    cookie: readCookie(request, EMBED_COOKIE),
  });
  // Only the session's AllowedDomains may frame its pages (no AllowedDomains: no framing);
  // refusals honour them too, so the portal's frame shows why.
  const ancestors = outcome.session?.allowedDomains ?? [];
  // Opened by the SDK for an allowed embedding page: the frame talks to that page only.
  const frame: EmbedFrameContext | undefined = embedFrameContext(url.searchParams, ancestors);
  const errorHead = (errorCode: string) => frame && frameHead({ ...frame, role: 'error', dashboardId, errorCode });
  if (outcome.kind !== 'open') {
    const refusal = REFUSALS[outcome.kind];
    sendPage(response, refusal.status, refusal.page(errorHead(refusal.errorCode)), ancestors);
    return true;
  }
  const dashboard = findSampleDashboard(outcome.session.dashboardId);
  if (!dashboard) {
    sendPage(response, 404, notFoundPage(errorHead('NotFound')), ancestors);
    return true;
  }
  // SameSite=Lax: kept in frames of the same site (the same host on any port, which is why
  // local mode hands out embed URLs on its site's host); Secure and SameSite=None would need
  // https, which local mode does not have.
  const cookie: Record<string, string> = outcome.cookie
    ? {
        'Set-Cookie': `${EMBED_COOKIE}=${outcome.cookie.value}; Path=${embedPath(outcome.session)}; Max-Age=${outcome.cookie.maxAgeSeconds}; HttpOnly; ${cookieAttributes(request)}`,
      }
    : {};
  // Row-level security is applied on every load: group and rules changes show at the next one.
  const { namespace, userName } = outcome.session;
  const facts = visibleFacts(
    { scope: context.scope, state: context.store.state, rowLevelSecurity: context.rowLevelSecurity },
    dashboard,
    namespace,
    userName,
  );
  const page = dashboardPage(dashboard, userName, parseViewState(url.searchParams), facts, {
    frame,
    features: outcome.session.enabledFeatures ?? [],
    companyParameter: declaresCompany(dashboard) ? url.searchParams.getAll('p.company') : undefined,
  });
  sendPage(response, 200, page, ancestors, cookie);
  return true;
}

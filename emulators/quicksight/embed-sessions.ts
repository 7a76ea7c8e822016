import { createHash, randomBytes, randomUUID, timingSafeEqual } from 'node:crypto';
import { canViewDashboard } from './access.ts';
import type { AccountScope } from './arns.ts';
import type { StateStore } from './persistence.ts';
import type { EmbedSession } from './state.ts';

/**
 * Embed links and the browser sessions they open. A link holds a one-time code valid for
 * five minutes; redeeming it sets an HttpOnly cookie scoped to the session's path that lasts
 * the requested session lifetime. Only hashes of the code and the cookie are stored.
 */

const EMBED_LINK_VALIDITY_MS = 5 * 60_000;
export const EMBED_COOKIE = 'qs_embed_session';

const sha256 = (value: string) => createHash('sha256').update(value).digest('hex');

function sameHash(expected: string | undefined, value: string): boolean {
  if (!expected) return false;
  const [a, b] = [Buffer.from(expected, 'hex'), Buffer.from(sha256(value), 'hex')];
  return a.length === b.length && timingSafeEqual(a, b);
}

export interface EmbedRequest {
  readonly namespace: string;
  readonly userName: string;
  readonly dashboardId: string;
  readonly allowedDomains: readonly string[];
  readonly lifetimeMinutes: number;
  /** The features FeatureConfigurations turned on. */
  readonly enabledFeatures: readonly string[];
}

/** Starts an embed session and answers the URL that redeems it. */
export async function issueEmbedUrl(
  store: StateStore,
  baseUrl: string,
  now: number,
  request: EmbedRequest,
): Promise<string> {
  const code = randomBytes(32).toString('base64url');
  const session: EmbedSession = {
    id: randomUUID(),
    namespace: request.namespace,
    userName: request.userName,
    dashboardId: request.dashboardId,
    allowedDomains: [...request.allowedDomains],
    lifetimeMinutes: request.lifetimeMinutes,
    enabledFeatures: [...request.enabledFeatures],
    codeHash: sha256(code),
    linkExpiresAt: now + EMBED_LINK_VALIDITY_MS,
  };
  await store.commit({ type: 'putEmbedSession', session });
  return `${baseUrl}/embed/${session.id}/dashboards/${encodeURIComponent(request.dashboardId)}?code=${code}`;
}

export function embedPath(session: Pick<EmbedSession, 'id'>): string {
  return `/embed/${session.id}`;
}

export type EmbedOutcome =
  /** Show the dashboard; `cookie` is set when the one-time link was just redeemed. */
  | {
      readonly kind: 'open';
      readonly session: EmbedSession;
      readonly cookie?: { value: string; maxAgeSeconds: number };
    }
  | { readonly kind: 'link-expired'; readonly session?: EmbedSession }
  | { readonly kind: 'session-ended'; readonly session?: EmbedSession }
  | { readonly kind: 'no-access'; readonly session: EmbedSession }
  | { readonly kind: 'not-found'; readonly session?: EmbedSession };

export interface EmbedLoad {
  readonly sessionId: string;
  readonly dashboardId: string;
  /** The `code` query parameter, present on the first load only. */
  readonly code: string | null;
  /** The value of the session cookie, if the browser sent one. */
  readonly cookie: string | undefined;
}

/**
 * Decides what a load of an embed URL shows. The user's access is checked again on every
 * load: a user deleted or unassigned since the link was made sees no data.
 */
export async function loadEmbed(
  store: StateStore,
  scope: AccountScope,
  now: number,
  load: EmbedLoad,
): Promise<EmbedOutcome> {
  const session = store.state.embedSession(load.sessionId);
  if (load.code !== null) {
    if (
      !session ||
      !sameHash(session.codeHash, load.code) ||
      session.redeemedAt !== undefined ||
      now > session.linkExpiresAt
    ) {
      return { kind: 'link-expired', session };
    }
    if (session.dashboardId !== load.dashboardId) return { kind: 'not-found', session };
    const cookie = randomBytes(32).toString('base64url');
    const redeemed: EmbedSession = {
      ...session,
      redeemedAt: now,
      cookieHash: sha256(cookie),
      sessionExpiresAt: now + session.lifetimeMinutes * 60_000,
    };
    await store.commit({ type: 'putEmbedSession', session: redeemed });
    if (!hasAccess(store, scope, redeemed)) return { kind: 'no-access', session: redeemed };
    return { kind: 'open', session: redeemed, cookie: { value: cookie, maxAgeSeconds: redeemed.lifetimeMinutes * 60 } };
  }
  if (!session || !load.cookie || !sameHash(session.cookieHash, load.cookie)) return { kind: 'session-ended', session };
  if (session.sessionExpiresAt === undefined || now > session.sessionExpiresAt)
    return { kind: 'session-ended', session };
  if (session.dashboardId !== load.dashboardId) return { kind: 'not-found', session };
  if (!hasAccess(store, scope, session)) return { kind: 'no-access', session };
  return { kind: 'open', session };
}

function hasAccess(store: StateStore, scope: AccountScope, session: EmbedSession): boolean {
  return (
    store.state.user(session.namespace, session.userName) !== undefined &&
    canViewDashboard(store.state, scope, session.namespace, session.userName, session.dashboardId)
  );
}

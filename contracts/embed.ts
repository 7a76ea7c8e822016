import * as z from 'zod';
import { EMBED_DASHBOARD_HEADER } from './function-urls.ts';

/** GET to the embed function with `Authorization: Bearer <access token>` and `x-dashboard-id`. */
export { EMBED_DASHBOARD_HEADER };

/** The answer for a dashboard the caller does not have; the dashboard page shows it for such a link too. */
export const NOT_ASSIGNED_MESSAGE = 'This dashboard is not assigned to you';

/**
 * Optional header naming what the embed URL is for, recorded with the view: the page's first
 * dashboard (`default`), another one chosen in the list (`switch`), Refresh or Retry
 * (`refresh`), or the timer that renews the URL before the session ends (`renewal`).
 */
export const EMBED_SOURCE_HEADER = 'x-embed-source';
const EMBED_SOURCES = ['default', 'switch', 'refresh', 'renewal'] as const;
export type EmbedSource = (typeof EMBED_SOURCES)[number];
export const embedSourceSchema = z
  .enum(EMBED_SOURCES, { error: `${EMBED_SOURCE_HEADER} must be one of ${EMBED_SOURCES.join(', ')}` })
  .default('default');

/** Request headers the embed function reads besides Authorization (its CORS allow-list). */
export const EMBED_REQUEST_HEADERS = [EMBED_DASHBOARD_HEADER, EMBED_SOURCE_HEADER] as const;

export const embedResponseSchema = z.object({
  url: z.string(),
  /** When the embedded session ends (ISO time); the page renews the URL shortly before. */
  sessionExpiresAt: z.string(),
  /** The caller's companies (an owner's portfolio), for the dashboard page's company choice. */
  companies: z.array(z.string()).optional(),
  /** The dashboard features the URL turns on (the deployment's dashboardFeatures). */
  features: z.array(z.string()).optional(),
});
export type EmbedResponse = z.infer<typeof embedResponseSchema>;

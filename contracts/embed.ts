import * as z from 'zod';

/** GET to the embed function with `Authorization: Bearer <access token>` and `x-dashboard-id`. */
export const EMBED_DASHBOARD_HEADER = 'x-dashboard-id';

/** The answer for a dashboard the caller does not have; the dashboard page shows it for such a link too. */
export const NOT_ASSIGNED_MESSAGE = 'This dashboard is not assigned to you';

export const embedResponseSchema = z.object({
  url: z.string(),
  /** When the embedded session ends (ISO time); the page renews the URL shortly before. */
  sessionExpiresAt: z.string(),
});
export type EmbedResponse = z.infer<typeof embedResponseSchema>;

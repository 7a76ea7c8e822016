import {
  EMBED_DASHBOARD_HEADER,
  EMBED_SOURCE_HEADER,
  embedResponseSchema,
  type EmbedSource,
} from '#contracts/embed.ts';
import { ApiError, type ApiClient } from '#web/lib/api.ts';

const EMBED_MESSAGES = {
  noUrl: 'No URL returned from Lambda function',
  failed: (status: number, statusText: string) => `Failed to get QuickSight URL: ${status} ${statusText}`.trim(),
} as const;

export interface EmbedSession {
  readonly url: string;
  /** Epoch ms when the embedded session ends. */
  readonly expiresAt: number;
  /** The caller's companies; several for an owner. */
  readonly companies: readonly string[];
  readonly features: readonly string[];
}

/** Thrown with the dashboard page's texts (spec section 8). */
class EmbedUrlError extends Error {
  override readonly name = 'EmbedUrlError';
}

/** `source` says what the URL is for; the server records it with the view. */
export async function fetchEmbedUrl(
  client: ApiClient,
  functionUrl: string,
  dashboardId: string,
  source: EmbedSource = 'default',
): Promise<EmbedSession> {
  let body;
  try {
    body = await client.request(functionUrl, {
      method: 'GET',
      headers: { [EMBED_DASHBOARD_HEADER]: dashboardId, [EMBED_SOURCE_HEADER]: source },
      schema: embedResponseSchema,
    });
  } catch (error) {
    if (error instanceof ApiError && error.status >= 400) {
      // Function URLs may send no reason phrase; the server's error text says more then.
      throw new EmbedUrlError(EMBED_MESSAGES.failed(error.status, error.statusText || error.error));
    }
    // A network failure, or an answer without a usable URL.
    const answeredWithoutUrl = error instanceof ApiError && error.status > 0;
    throw new EmbedUrlError(!answeredWithoutUrl && error instanceof Error ? error.message : EMBED_MESSAGES.noUrl);
  }
  if (!body.url) throw new EmbedUrlError(EMBED_MESSAGES.noUrl);
  const expiresAt = Date.parse(body.sessionExpiresAt);
  return {
    url: body.url,
    expiresAt: Number.isNaN(expiresAt) ? Date.now() + 10 * 60_000 : expiresAt,
    companies: body.companies ?? [],
    features: body.features ?? [],
  };
}

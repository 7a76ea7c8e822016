import type { z } from 'zod';
import { listDashboardMetadataResponseSchema, type quicksightAdminRequestSchema } from '../../contracts/quicksight-admin.ts';

export interface SampleDashboard {
  readonly dashboardId: string;
  readonly name: string;
  readonly description: string;
}

export interface CatalogueSeedInput {
  /** The QuickSight management function URL. */
  readonly functionUrl: string;
  /** An administrator's access token. */
  readonly accessToken: string;
  readonly dashboards: readonly SampleDashboard[];
  readonly linkOf: (dashboardId: string) => string;
  readonly user: { readonly email: string; readonly companyName: string; readonly dashboardCount: number };
}

/** A request as sent (fields with defaults may be left out). */
type RequestBody = z.input<typeof quicksightAdminRequestSchema>;

async function call(input: CatalogueSeedInput, body: RequestBody, acceptedStatuses: readonly number[] = []): Promise<unknown> {
  const response = await fetch(input.functionUrl, {
    method: 'POST',
    headers: { authorization: `Bearer ${input.accessToken}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  const text = await response.text();
  if (!response.ok && !acceptedStatuses.includes(response.status)) {
    throw new Error(`${body.action} failed with ${response.status}: ${text}`);
  }
  return text === '' ? undefined : JSON.parse(text);
}

/**
 * Puts the sample dashboards in the catalogue, registers the demo user in QuickSight and
 * invites them to the first dashboards (the first as default), all through the QuickSight
 * management function, so the data is exactly what the product writes. Each step can be
 * repeated without effect.
 */
export async function seedCatalogue(input: CatalogueSeedInput): Promise<void> {
  const listed = listDashboardMetadataResponseSchema.parse(await call(input, { action: 'LIST_DASHBOARD_METADATA' }));
  const present = new Set(listed.dashboards.map((d) => d.dashboardId.toLowerCase()));
  for (const dashboard of input.dashboards) {
    if (present.has(dashboard.dashboardId.toLowerCase())) continue;
    await call(input, {
      action: 'CREATE_DASHBOARD_METADATA',
      dashboardId: dashboard.dashboardId,
      dashboardName: dashboard.name,
      dashboardLink: input.linkOf(dashboard.dashboardId),
      description: dashboard.description,
    });
  }

  // 409: the user is already registered.
  await call(input, { action: 'REGISTER_USER', userEmail: input.user.email, userRole: 'READER' }, [409]);
  const invited = input.dashboards.slice(0, input.user.dashboardCount);
  for (const [index, dashboard] of invited.entries()) {
    await call(input, {
      action: 'INVITE_TO_DASHBOARD',
      userEmail: input.user.email,
      dashboardId: dashboard.dashboardId,
      dashboardName: dashboard.name,
      dashboardLink: input.linkOf(dashboard.dashboardId),
      makeDefault: index === 0,
      companyName: input.user.companyName,
    });
  }
}

import type { z } from 'zod';
import { type CompanyKind, listCompaniesResponseSchema } from '#contracts/companies.ts';
import { listDashboardMetadataResponseSchema, type quicksightAdminRequestSchema } from '#contracts/quicksight-admin.ts';

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
  readonly companies: readonly { readonly name: string; readonly kind: CompanyKind }[];
  /** Registered as QuickSight readers, given their companies, then invited to the first dashboards. */
  readonly users: readonly SeededUser[];
}

interface SeededUser {
  readonly email: string;
  readonly companies: readonly string[];
  readonly owner: boolean;
  readonly dashboardCount: number;
}

/** A request as sent (fields with defaults may be left out). */
type RequestBody = z.input<typeof quicksightAdminRequestSchema>;

async function call(
  input: CatalogueSeedInput,
  body: RequestBody,
  acceptedStatuses: readonly number[] = [],
): Promise<unknown> {
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
 * Puts the sample dashboards in the catalogue, creates the companies, registers the demo
 * users in QuickSight, gives them their companies and invites them to the first dashboards
 * (the first as default), all through the QuickSight management function, so the data is
 * exactly what the product writes (company groups, rules file and its SPICE load included).
 * Each step can be repeated without effect.
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

  const companies = listCompaniesResponseSchema.parse(await call(input, { action: 'LIST_COMPANIES' }));
  const existing = new Set(companies.companies.map((company) => company.name.toLowerCase()));
  for (const company of input.companies) {
    if (existing.has(company.name.toLowerCase())) continue;
    await call(input, { action: 'CREATE_COMPANY', name: company.name, kind: company.kind });
  }

  for (const user of input.users) {
    // 409: the user is already registered.
    await call(input, { action: 'REGISTER_USER', userEmail: user.email, userRole: 'READER' }, [409]);
    await call(input, {
      action: 'SET_USER_COMPANIES',
      userEmail: user.email,
      companies: [...user.companies],
      owner: user.owner,
    });
    const invited = input.dashboards.slice(0, user.dashboardCount);
    for (const [index, dashboard] of invited.entries()) {
      await call(input, {
        action: 'INVITE_TO_DASHBOARD',
        userEmail: user.email,
        dashboardId: dashboard.dashboardId,
        dashboardName: dashboard.name,
        dashboardLink: input.linkOf(dashboard.dashboardId),
        makeDefault: index === 0,
      });
    }
  }
}

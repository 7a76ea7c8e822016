import { existsSync } from 'node:fs';
import { rename, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { seedCatalogue, type SampleDashboard } from './catalogue.ts';
import { DEMO_ACCOUNTS, DEMO_COMPANIES, DEMO_MEMBERSHIPS, DEMO_USER_DASHBOARD_COUNT } from './demo-accounts.ts';
import { ensureAccount, signInWithAuthenticator, type PoolContext } from '#clients/cognito.ts';

/** Written once the seed has completed; its presence means the data directory is seeded. */
const SEED_MARKER = 'seed.json';

export interface SeedInput {
  readonly dataDir: string;
  readonly pool: PoolContext;
  readonly quicksightAdminUrl: string;
  readonly dashboards: readonly SampleDashboard[];
  readonly linkOf: (dashboardId: string) => string;
  readonly log: (line: string) => void;
}

/**
 * Seeds a new data directory: the demo accounts with their authenticators, the sample
 * dashboards in the catalogue, the three companies, the demo user (Northwind) and owner
 * (Northwind and Contoso) in QuickSight with two company-scoped dashboards each. Every step
 * tolerates what an interrupted earlier attempt already did; the marker is written last.
 */
export async function seedIfNeeded(input: SeedInput): Promise<boolean> {
  const marker = join(input.dataDir, SEED_MARKER);
  if (existsSync(marker)) return false;
  input.log('Seeding the demo accounts and dashboards...');

  await ensureAccount(input.pool, DEMO_ACCOUNTS.admin);
  await ensureAccount(input.pool, DEMO_ACCOUNTS.user);
  await ensureAccount(input.pool, DEMO_ACCOUNTS.owner);
  const adminAccessToken = await signInWithAuthenticator(input.pool, DEMO_ACCOUNTS.admin);
  await signInWithAuthenticator(input.pool, DEMO_ACCOUNTS.user);
  await signInWithAuthenticator(input.pool, DEMO_ACCOUNTS.owner);

  await seedCatalogue({
    functionUrl: input.quicksightAdminUrl,
    accessToken: adminAccessToken,
    dashboards: input.dashboards,
    linkOf: input.linkOf,
    companies: DEMO_COMPANIES,
    users: DEMO_MEMBERSHIPS.map((membership) => ({
      email: DEMO_ACCOUNTS[membership.account].email,
      companies: membership.companies,
      owner: membership.owner,
      dashboardCount: DEMO_USER_DASHBOARD_COUNT,
    })),
  });

  const partial = `${marker}.partial`;
  await writeFile(partial, JSON.stringify({ seededAt: new Date().toISOString() }));
  await rename(partial, marker);
  return true;
}

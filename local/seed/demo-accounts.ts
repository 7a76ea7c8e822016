import type { CompanyKind } from '#contracts/companies.ts';
import { ADMINS_GROUP, USERS_GROUP } from '#contracts/groups.ts';

/** The demo accounts local mode seeds (documented in the README; local mode only). */
export const DEMO_ACCOUNTS = {
  admin: { email: 'demo.admin@example.com', password: 'DemoAdmin#2026', group: ADMINS_GROUP },
  user: { email: 'demo.user@example.com', password: 'DemoUser#2026', group: USERS_GROUP },
  /** A private-equity owner holding two of the companies (its portfolio). */
  owner: { email: 'demo.owner@example.com', password: 'DemoOwner#2026', group: USERS_GROUP },
} as const;

/** The companies local mode seeds; the sample data holds rows of each. */
export const DEMO_COMPANIES: readonly { readonly name: string; readonly kind: CompanyKind }[] = [
  { name: 'Northwind Manufacturing', kind: 'manufacturer' },
  { name: 'Contoso Distribution', kind: 'distributor' },
  { name: 'Fabrikam Industries', kind: 'manufacturer' },
];

/** Who holds which companies: the demo user one, the owner a portfolio of two. */
export const DEMO_MEMBERSHIPS: readonly {
  readonly account: 'user' | 'owner';
  readonly companies: readonly string[];
  readonly owner: boolean;
}[] = [
  { account: 'user', companies: ['Northwind Manufacturing'], owner: false },
  { account: 'owner', companies: ['Northwind Manufacturing', 'Contoso Distribution'], owner: true },
];

/** How many sample dashboards the demo user and owner are invited to (the first one is the default). */
export const DEMO_USER_DASHBOARD_COUNT = 2;

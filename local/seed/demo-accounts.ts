/** The demo accounts local mode seeds (documented in the README; local mode only). */
export const DEMO_ACCOUNTS = {
  admin: { email: 'demo.admin@example.com', password: 'DemoAdmin#2026', group: 'Admins' },
  user: { email: 'demo.user@example.com', password: 'DemoUser#2026', group: 'Users' },
} as const;

export type DemoAccountKey = keyof typeof DEMO_ACCOUNTS;

/** Company shown on the demo user's dashboard assignments. */
export const DEMO_USER_COMPANY = 'Demo Distribution Co.';

/** How many sample dashboards the demo user is invited to (the first one is the default). */
export const DEMO_USER_DASHBOARD_COUNT = 2;

import { readFile } from 'node:fs/promises';
import Papa from 'papaparse';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SAMPLE_DASHBOARDS } from '#emulators/quicksight/index.ts';
import { signInAsAdmin, storedAccessToken } from './support/auth.ts';
import { launchBrowser } from './support/browser.ts';
import { listMail, readMail, type CapturedMail } from './support/mail.ts';
import { useStack } from './support/stack.ts';
import { unusedTotpCode } from './support/unused-totp-codes.ts';

const stack = useStack();
const VIEWPORT = { width: 1440, height: 900 };
const FRAME = 'iframe[title="QuickSight Analytics Dashboard"]';
/** Unique to this run, so the filters and inbox look only at its accounts. */
const TAG = `onboard-${Date.now()}`;
const emailOf = (index: number) => `${TAG}-${String(index).padStart(2, '0')}@example.com`;
const FIRST = SAMPLE_DASHBOARDS[0]!;
const DEFAULT = SAMPLE_DASHBOARDS[1]!;
const GOOD_ROWS = 22;

/** 25 rows in a column order of their own: 22 good ones and 3 the preview refuses. */
const IMPORT_FILE = [
  'role,email,dashboards,companyName,defaultDashboard',
  ...Array.from(
    { length: GOOD_ROWS },
    (_, index) =>
      `Users,${emailOf(index + 1)},${FIRST.dashboardId};${DEFAULT.dashboardId},Cohort Co,${DEFAULT.dashboardId}`,
  ),
  `Users,not-an-address,${FIRST.dashboardId},Cohort Co,`,
  `Users,${TAG}-unknown@example.com,no-such-dashboard,Cohort Co,`,
  `Users,${emailOf(1)},${FIRST.dashboardId},Cohort Co,`,
].join('\n');

/** The temporary password in an invitation, read from its HTML. */
const temporaryPasswordIn = (mail: CapturedMail): string => {
  const match = /Temporary password:<br><code>([^<]*)<\/code>/.exec(mail.html ?? '');
  if (!match) throw new Error(`no temporary password in "${mail.subject}"`);
  return match[1]!.replace(/&#(\d+);/g, (_, code: string) => String.fromCharCode(Number(code)));
};

describe('bulk onboarding with invitations, and the audit export', () => {
  let browser: Browser;
  let adminContext: BrowserContext;
  let admin: Page;
  /** The administrator the import is made as, whom the audit trail names. */
  let importedBy = stack.demo.admin;

  beforeAll(async () => {
    browser = await launchBrowser();
    adminContext = await browser.newContext({ viewport: VIEWPORT, acceptDownloads: true });
    admin = await adminContext.newPage();
  });

  afterAll(async () => {
    const token = admin ? await storedAccessToken(admin, stack).catch(() => '') : '';
    if (token) {
      for (let index = 1; index <= GOOD_ROWS; index += 1) {
        await fetch(stack.functions.userAdmin, {
          method: 'POST',
          headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
          body: JSON.stringify({ action: 'DELETE_USER', userEmail: emailOf(index) }),
        });
      }
      // The company the import created, now without users.
      const call = (body: unknown) =>
        fetch(stack.functions.quicksightAdmin, {
          method: 'POST',
          headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
          body: JSON.stringify(body),
        });
      const { companies = [] } = (await (await call({ action: 'LIST_COMPANIES' })).json()) as {
        companies?: { id: string; name: string }[];
      };
      const cohort = companies.find((company) => company.name === 'Cohort Co');
      if (cohort) await call({ action: 'DELETE_COMPANY', companyId: cohort.id });
    }
    await browser?.close();
  });

  it('imports a 25-row file with 3 bad rows: 22 accounts are created and receive their invitation', async () => {
    const started = new Date();
    importedBy = await signInAsAdmin(admin, stack);
    await admin.goto(`${stack.webUrl}/admin/users`);
    await admin.getByRole('button', { name: 'Import Users' }).click();
    const dialog = admin.getByRole('dialog', { name: 'Import Users' });
    // The file field opens once the dashboard catalogue has loaded.
    await expect.poll(() => dialog.getByLabel('CSV file').isEnabled(), { timeout: 15_000 }).toBe(true);
    await dialog
      .getByLabel('CSV file')
      .setInputFiles({ name: 'cohort.csv', mimeType: 'text/csv', buffer: Buffer.from(IMPORT_FILE) });
    // Cohort Co is not a company yet: marked in the preview, and created only once the admin confirms.
    await dialog.getByText('New company').first().waitFor();
    expect(await dialog.getByRole('button', { name: 'Import 22 users' }).count()).toBe(0);
    await dialog.getByRole('checkbox', { name: 'Create 1 new company' }).check();
    await dialog.getByText('cohort.csv: 25 rows — 22 ready, 3 will be skipped, 0 already exist.').waitFor();
    expect(await dialog.locator('tr', { hasText: 'not-an-address' }).textContent()).toContain(
      'Please enter a valid email address',
    );
    expect(await dialog.locator('tr', { hasText: 'no-such-dashboard' }).textContent()).toContain(
      'Dashboard no-such-dashboard is not in the catalogue',
    );

    await dialog.getByRole('button', { name: 'Import 22 users' }).click();
    await dialog.getByText('22 created, 0 already existed, 0 failed, 3 skipped.').waitFor({ timeout: 180_000 });
    await dialog.getByRole('button', { name: 'Done' }).click();
    const token = await storedAccessToken(admin, stack);
    const listed = await fetch(stack.functions.quicksightAdmin, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ action: 'LIST_COMPANIES' }),
    });
    const { companies } = (await listed.json()) as { companies: { name: string; userCount: number }[] };
    expect(companies.find((company) => company.name === 'Cohort Co')).toMatchObject({ userCount: GOOD_ROWS });

    const invitations = (await listMail(stack)).filter(
      (mail) =>
        mail.to.some((to) => to.includes(TAG)) &&
        mail.subject === 'Your TVIQ account' &&
        Date.parse(mail.at) >= Math.floor(started.getTime() / 1000) * 1000,
    );
    expect(invitations.flatMap((mail) => mail.to).sort()).toEqual(
      Array.from({ length: GOOD_ROWS }, (_, index) => emailOf(index + 1)),
    );
  });

  it('an invited user signs in with the temporary password, chooses a password, sets up MFA and sees the default dashboard', async () => {
    const email = emailOf(7);
    const invitation = await readMail(stack, { to: email, subject: 'Your TVIQ account' });
    expect(invitation.html).toContain(`${stack.webUrl}/login`);
    const context = await browser.newContext({ viewport: VIEWPORT });
    try {
      const page = await context.newPage();
      await page.goto(`${stack.webUrl}/login`);
      await page.getByLabel('Username (email)', { exact: true }).fill(email);
      await page.getByLabel('Password', { exact: true }).fill(temporaryPasswordIn(invitation));
      await page.getByRole('button', { name: 'Log In', exact: true }).click();
      await page.getByText('Please set a new password.').waitFor();
      await page.getByLabel('New Password', { exact: true }).fill('Onboarded#2026');
      await page.getByRole('button', { name: 'Set Password' }).click();
      const key = page.getByLabel('Manual entry key');
      await key.waitFor();
      const secret = (await key.textContent())!.replace(/\s+/g, '');
      await page.getByLabel('Enter the 6-digit code from your app').fill(await unusedTotpCode(secret));
      await page.getByRole('button', { name: 'Verify & Complete Setup' }).click();
      await page.waitForURL(/\/home$/);
      const selected = await page
        .getByLabel('Select Dashboard')
        .evaluate(
          (select) => (select as unknown as { selectedOptions: { text: string }[] }).selectedOptions[0]?.text ?? '',
        );
      expect(selected).toBe(DEFAULT.name);
      await page.frameLocator(FRAME).getByText(DEFAULT.name, { exact: false }).first().waitFor({ timeout: 30_000 });
    } finally {
      await context.close();
    }
  });

  it('exports the Activity trail filtered to the import as CSV: exactly the filtered rows', async () => {
    await admin.goto(`${stack.webUrl}/admin/activity`);
    await admin.getByRole('heading', { level: 1, name: 'Activity' }).waitFor();
    await admin.getByLabel('Action').selectOption('IMPORT_USER');
    // The filters apply as they are chosen or typed (text once typing pauses).
    await admin.getByLabel('Target').fill(TAG);
    // Every row shown is one of this import's (the unfiltered trail holds other entries too).
    const rows = admin.locator('table tbody tr');
    await expect.poll(() => rows.count(), { timeout: 15_000 }).toBe(GOOD_ROWS);
    expect(await admin.locator('table tbody tr', { hasText: TAG }).count()).toBe(GOOD_ROWS);

    const [download] = await Promise.all([
      admin.waitForEvent('download'),
      admin.getByRole('button', { name: 'Export CSV' }).click(),
    ]);
    expect(download.suggestedFilename()).toMatch(/^activity-.*\.csv$/);
    const text = await readFile((await download.path())!, 'utf8');
    const [header, ...records] = Papa.parse<string[]>(text.trim()).data;
    expect(header).toEqual(['Time (UTC)', 'Admin', 'Action', 'Action code', 'Target', 'Outcome', 'Detail']);
    expect(records.map((record) => record[4]).sort()).toEqual(
      Array.from({ length: GOOD_ROWS }, (_, index) => emailOf(index + 1)),
    );
    for (const record of records) {
      expect(record.slice(1, 4)).toEqual([importedBy.email, 'Import user', 'IMPORT_USER']);
      expect(record[0]).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
    }

    // The export itself is now the newest entry of the trail.
    await admin.getByRole('button', { name: 'Clear filters', exact: true }).first().click();
    await admin.getByLabel('Action').selectOption('EXPORT_AUDIT_LOG');
    await admin
      .locator('table tbody tr', { hasText: `action IMPORT_USER; target contains "${TAG}": ${GOOD_ROWS} entries` })
      .first()
      .waitFor();
  });
});

import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signInAsAdmin, signInAsUser, storedAccessToken } from './support/auth.ts';
import { launchBrowser } from './support/browser.ts';
import { listMail, readMail, type CapturedMail } from './support/mail.ts';
import { chooseRowAction } from './support/row-actions.ts';
import { useStack } from './support/stack.ts';

/**
 * Subscriptions end to end: a user subscribes from the dashboard page in two clicks, an
 * administrator sends it now from *Deliveries*, and the mail that arrives (local mode's delivery
 * rule runs every 20 seconds) carries a CSV made by QuickSight as an anonymous user tagged with
 * the subscriber's companies: the demo user's holds Northwind's rows only, the demo owner's
 * Contoso's and Northwind's, never Fabrikam's. A disabled account's subscriptions go at once and
 * nothing more is mailed to it.
 */

const stack = useStack();
const VIEWPORT = { width: 1280, height: 900 };
const DASHBOARD = 'Sales Performance';
const NORTHWIND = 'Northwind Manufacturing';
const CONTOSO = 'Contoso Distribution';
const FABRIKAM = 'Fabrikam Industries';
/** The delivery rule's local interval (20 s) and the snapshot job, with room for a loaded machine. */
const DELIVERY_TIMEOUT_MS = 90_000;

/** The CSV attachment of a delivery: its name and its data rows (the header first). */
function csvOf(mail: CapturedMail): { name: string; lines: string[] } {
  expect(mail.attachments).toHaveLength(1);
  const [file] = mail.attachments;
  expect(file?.contentType).toBe('text/csv');
  const lines = Buffer.from(file!.contentBase64, 'base64').toString('utf8').trim().split(/\r?\n/);
  return { name: file!.fileName, lines };
}

describe('subscriptions: a dashboard by email, only the subscriber’s companies’ rows', () => {
  let browser: Browser;
  let adminContext: BrowserContext;
  let admin: Page;
  let adminToken = '';
  const started = new Date();

  const callFunction = async (url: string, token: string, body: Record<string, unknown>) => {
    const response = await fetch(url, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    const answer = (await response.json()) as Record<string, unknown>;
    if (!response.ok) throw new Error(`${String(body.action)} answered ${response.status}: ${JSON.stringify(answer)}`);
    return answer;
  };
  const callAdmin = (body: Record<string, unknown>) => callFunction(stack.functions.quicksightAdmin, adminToken, body);
  const subscriptionsOf = async (email: string) =>
    ((await callAdmin({ action: 'LIST_SUBSCRIPTIONS' })).subscriptions as { id: string; email: string }[]).filter(
      (subscription) => subscription.email === email,
    );

  beforeAll(async () => {
    browser = await launchBrowser();
    adminContext = await browser.newContext({ viewport: VIEWPORT });
    admin = await adminContext.newPage();
    await signInAsAdmin(admin, stack);
    adminToken = await storedAccessToken(admin, stack);
  });

  afterAll(async () => {
    // No subscription of the demo accounts is left for the journeys that follow.
    if (adminToken) {
      for (const email of [stack.demo.user.email, stack.demo.owner.email]) {
        for (const { id } of await subscriptionsOf(email).catch(() => []))
          await callAdmin({ action: 'CANCEL_SUBSCRIPTION', subscriptionId: id }).catch(() => undefined);
      }
    }
    await browser?.close();
  });

  /** Signs `account` in and subscribes to its default dashboard as a CSV: Subscribe, CSV, Subscribe. */
  const subscribeFromDashboard = async (account: typeof stack.demo.user) => {
    const context = await browser.newContext({ viewport: VIEWPORT });
    try {
      const page = await context.newPage();
      await signInAsUser(page, stack, account);
      await page.getByLabel('Select Dashboard').waitFor();
      await page.getByRole('button', { name: 'Subscribe', exact: true }).click();
      const dialog = page.getByRole('dialog', { name: 'Email this dashboard' });
      await dialog.getByRole('radio', { name: /^CSV/ }).check();
      await dialog.getByRole('button', { name: 'Subscribe', exact: true }).click();
      await page.getByText(new RegExp(`^Subscribed: ${DASHBOARD}, daily at 08:00`)).waitFor();
      await dialog.waitFor({ state: 'detached' });
    } finally {
      await context.close();
    }
  };

  /** Sends the recipient's subscription now from the Deliveries page. */
  const sendNow = async (email: string) => {
    await admin.goto(`${stack.webUrl}/admin/deliveries`);
    await admin.getByRole('heading', { name: 'Deliveries' }).waitFor();
    await chooseRowAction(admin, `${email}, ${DASHBOARD}`, 'Send now');
    await admin.getByText(`${DASHBOARD} will be sent to ${email} within a few minutes.`).waitFor();
  };

  it('the demo user subscribes in two clicks and receives a CSV of Northwind’s rows only', async () => {
    await subscribeFromDashboard(stack.demo.user);
    await sendNow(stack.demo.user.email);
    const mail = await readMail(stack, {
      to: stack.demo.user.email,
      subject: `${DASHBOARD}: your scheduled CSV`,
      since: started,
      timeoutMs: DELIVERY_TIMEOUT_MS,
    });
    expect(mail.text).toContain(`${stack.webUrl}/dashboards/`);
    const { name, lines } = csvOf(mail);
    expect(name).toMatch(/^Sales Performance \d{4}-\d{2}-\d{2}\.csv$/);
    const rows = lines.slice(1);
    expect(rows.length).toBeGreaterThan(0);
    for (const row of rows) expect(row).toContain(NORTHWIND);
    expect(lines.join('\n')).not.toContain(CONTOSO);
    expect(lines.join('\n')).not.toContain(FABRIKAM);
    // Delivered, on the admin page too.
    await admin.reload();
    await admin.getByText('Delivered').first().waitFor();
  });

  it('the demo owner’s file holds Contoso’s and Northwind’s rows, never Fabrikam’s', async () => {
    await subscribeFromDashboard(stack.demo.owner);
    await sendNow(stack.demo.owner.email);
    const mail = await readMail(stack, {
      to: stack.demo.owner.email,
      subject: `${DASHBOARD}: your scheduled CSV`,
      since: started,
      timeoutMs: DELIVERY_TIMEOUT_MS,
    });
    const text = csvOf(mail).lines.join('\n');
    expect(text).toContain(NORTHWIND);
    expect(text).toContain(CONTOSO);
    expect(text).not.toContain(FABRIKAM);
  });

  it('disabling an account cancels its subscriptions at once, and nothing more is mailed to it', async () => {
    const owner = stack.demo.owner.email;
    const [subscription] = await subscriptionsOf(owner);
    expect(subscription).toBeDefined();
    const ownersMail = async () => (await listMail(stack)).filter((mail) => mail.to.includes(owner));
    const before = new Set((await ownersMail()).map((mail) => mail.id));
    const disabledAt = new Date();
    await callFunction(stack.functions.userAdmin, adminToken, { action: 'DISABLE_USER', userEmail: owner });
    try {
      expect(await subscriptionsOf(owner)).toEqual([]);
      await expect(callAdmin({ action: 'SEND_SUBSCRIPTION_NOW', subscriptionId: subscription!.id })).rejects.toThrow(
        /answered 404/,
      );
      // Not on Deliveries either, where the demo user's still is.
      await admin.goto(`${stack.webUrl}/admin/deliveries`);
      await admin.getByText(stack.demo.user.email).first().waitFor();
      expect(await admin.getByText(owner).count()).toBe(0);
      // A delivery run after the disable (the demo user's file, sent now, arrives): nothing for the owner.
      await sendNow(stack.demo.user.email);
      await readMail(stack, {
        to: stack.demo.user.email,
        subject: `${DASHBOARD}: your scheduled CSV`,
        since: disabledAt,
        timeoutMs: DELIVERY_TIMEOUT_MS,
      });
      expect((await ownersMail()).filter((mail) => !before.has(mail.id))).toEqual([]);
    } finally {
      await callFunction(stack.functions.userAdmin, adminToken, { action: 'ENABLE_USER', userEmail: owner });
    }
  });
});

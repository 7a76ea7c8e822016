import { randomBytes } from 'node:crypto';
import { GlobalSignOutCommand } from '@aws-sdk/client-cognito-identity-provider';
import { ListUserGroupsCommand } from '@aws-sdk/client-quicksight';
import { z } from 'zod';
import { accessCheckSchema, saveCompanyResponseSchema } from '#contracts/companies.ts';
import { VERIFY_PREFIX } from '#contracts/verification.ts';
import { embedRequest, expectOk, type callFunction } from './portal-client.ts';
import type { StepPrinter } from './report.ts';
import type { PortalTarget } from './target.ts';
import type { EmbedBrowser } from './isolation-pages.ts';
import type { Synthetic } from './isolation-steps.ts';
import type { QuickSightReader } from './isolation-api.ts';

/**
 * The negatives of the isolation proof: what must show nothing. A user in no company, an
 * assignment removed while its session is open, a company deleted (refused while a user holds
 * it; afterwards no group, no rule, no rows of it), and a session that ended (the one-time link
 * used again, the page without its cookie, the portal session signed out).
 */

const okMessage = z.object({ message: z.string() }).loose();

export interface NegativeContext {
  readonly target: PortalTarget;
  readonly printer: StepPrinter;
  readonly problems: string[];
  readonly browser: EmbedBrowser | undefined;
  readonly synthetic: readonly Synthetic[];
  readonly scoped: { readonly dashboardId: string };
  readonly manage: (body: unknown) => ReturnType<typeof callFunction>;
  readonly urls: ReadonlyMap<string, string>;
  readonly accessCheck: () => Promise<z.infer<typeof accessCheckSchema>>;
  readonly quicksight: QuickSightReader;
  /** The portal's QuickSight namespace. */
  readonly namespace: string;
}

/** A removed assignment, a deleted company, an ended session and a user in no company show nothing. */
export async function negatives(context: NegativeContext): Promise<void> {
  const { target, printer, browser, synthetic, manage, urls } = context;
  const dashboardId = context.scoped.dashboardId;
  const [first] = synthetic;
  const owner = synthetic.at(-2)!;
  const nobody = synthetic.at(-1)!;
  const check = (name: string, action: () => Promise<void>) => printer.run(name, action).catch(() => undefined);
  const nothingDrawn = async (url: string | undefined, what: string) => {
    if (!browser || url === undefined) return;
    const page = await browser.reload(url).catch(() => undefined);
    if (page && (page.rows > 0 || page.companiesInView.length > 0))
      throw new Error(`${what} still draws ${page.rows} rows of ${page.companiesInView.join(', ')}`);
  };

  await check(
    'A user in no company sees no rows (in no QuickSight group, so no rule names them; no row drawn)',
    async () => {
      const { quicksight } = context;
      const { GroupList = [] } = await quicksight.client.send(
        new ListUserGroupsCommand({
          AwsAccountId: quicksight.accountId,
          Namespace: context.namespace,
          UserName: nobody.email,
        }),
      );
      if (GroupList.length > 0)
        throw new Error(`QuickSight has the user in ${GroupList.map((group) => group.GroupName).join(', ')}`);
      await nothingDrawn(urls.get(`${nobody.email}|${dashboardId}`), 'the dashboard of a user in no company');
    },
  );

  await check('A removed assignment shows nothing (no embed URL, the open session draws no rows)', async () => {
    expectOk(
      await manage({ action: 'REMOVE_FROM_DASHBOARD', userEmail: first!.email, dashboardId }),
      okMessage,
      'REMOVE_FROM_DASHBOARD',
    );
    const answer = await embedRequest(target, first!.token!, dashboardId);
    if (answer.status === 200)
      throw new Error(`the embed function still hands ${first!.label} a URL for ${dashboardId}`);
    await nothingDrawn(urls.get(`${first!.email}|${dashboardId}`), `the session opened before the removal`);
  });

  await check(
    'A deleted company shows nothing (refused while held; afterwards no group, no rule, no rows)',
    async () => {
      const name = `${VERIFY_PREFIX}${randomBytes(3).toString('hex')}`;
      const created = expectOk(
        await manage({ action: 'CREATE_COMPANY', name, kind: 'manufacturer' }),
        saveCompanyResponseSchema,
        'CREATE_COMPANY',
      ).company;
      let deleted = false;
      try {
        const holding = { action: 'SET_USER_COMPANIES', userEmail: owner.email, owner: true };
        expectOk(await manage({ ...holding, companies: [...owner.holds, name] }), okMessage, 'SET_USER_COMPANIES');
        const refused = await manage({ action: 'DELETE_COMPANY', companyId: created.id });
        if (refused.status !== 409)
          throw new Error(`deleting a company a user holds answered ${refused.status}, not 409`);
        expectOk(await manage({ ...holding, companies: owner.holds }), okMessage, 'SET_USER_COMPANIES');
        expectOk(await manage({ action: 'DELETE_COMPANY', companyId: created.id }), okMessage, 'DELETE_COMPANY');
        deleted = true;
        const left = (await context.accessCheck()).differences.filter(
          (difference) => difference.company === name || difference.subject?.includes(created.groupName),
        );
        if (left.length > 0)
          throw new Error(`the deleted company left ${left.map((difference) => difference.kind).join(', ')}`);
        const url = urls.get(`${owner.email}|${dashboardId}`);
        if (browser && url) {
          const page = await browser.reload(url, name);
          if (page.rows > 0 || page.companiesInView.includes(name))
            throw new Error(`the owner's dashboard draws rows of the deleted ${name}`);
        }
      } finally {
        if (!deleted) {
          await manage({ action: 'SET_USER_COMPANIES', userEmail: owner.email, owner: true, companies: owner.holds });
          await manage({ action: 'DELETE_COMPANY', companyId: created.id });
        }
      }
    },
  );

  await check('An ended session shows nothing (a used link, a lost cookie, a signed-out portal session)', async () => {
    const url = urls.get(`${owner.email}|${dashboardId}`);
    if (browser && url) {
      for (const [what, page] of [
        ['the one-time link loaded again', await browser.reuseLink(url)],
        ['the page without its session cookie', await browser.withoutSession(url)],
      ] as const) {
        if (page.rows > 0 || page.companiesInView.length > 0) throw new Error(`${what} draws ${page.rows} rows`);
      }
    }
    await target.cognito.send(new GlobalSignOutCommand({ AccessToken: owner.token! }));
    const answer = await embedRequest(target, owner.token!, dashboardId);
    if (answer.status === 200) throw new Error('the embed function hands a signed-out session a URL');
  });
}

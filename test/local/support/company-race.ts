import { ListUserGroupsCommand, QuickSightClient } from '@aws-sdk/client-quicksight';
import { get } from 'node:https';
import type { Company } from '#contracts/companies.ts';
import { embedResponseSchema } from '#contracts/embed.ts';
import { LOCAL_CREDENTIALS, type StackInfo } from '#clients/local-stack.ts';
import type { SessionTokens } from '#test/e2e/support/cognito-session.ts';

/** A GET over https that trusts only the given certificate (no verification is switched off). */
export function getOverTls(url: string, ca: string): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    get(url, { ca }, (response) => {
      let body = '';
      response.setEncoding('utf8');
      response.on('data', (chunk: string) => (body += chunk));
      response.on('end', () => resolve({ status: response.statusCode ?? 0, body }));
    }).on('error', reject);
  });
}

export interface RaceStack {
  readonly stack: StackInfo;
  /** The certificate of the embed pages (local QuickSight's tls/cert.pem). */
  readonly ca: string;
  readonly admin: SessionTokens;
  /** The demo user, whose companies change. */
  readonly user: SessionTokens;
}

interface RaceAnswer {
  readonly target: string;
  readonly status: number;
  readonly body: Record<string, unknown>;
}

/**
 * Company changes of the demo user sent at once through the QuickSight management function's
 * URL, and what QuickSight and the user's dashboard show meanwhile: the company groups
 * QuickSight has the user in (ListUserGroups) and the companies the default dashboard's
 * embedded page says it draws rows of.
 */
export async function companyRace(race: RaceStack) {
  const { stack, ca, admin, user } = race;
  const callAdmin = async (body: Record<string, unknown>) => {
    const response = await fetch(stack.functions.quicksightAdmin, {
      method: 'POST',
      headers: { authorization: `Bearer ${admin.accessToken}`, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    return { status: response.status, body: (await response.json()) as Record<string, unknown> };
  };
  const listed = (await callAdmin({ action: 'LIST_COMPANIES' })).body.companies as Company[];
  const groupOfCompany = new Map(listed.map((company) => [company.name, company.groupName]));
  const companyOfGroup = new Map(listed.map((company) => [company.groupName, company.name]));

  const groupsOfUser = async (): Promise<string[]> => {
    const quicksight = new QuickSightClient({
      endpoint: stack.quicksight.endpoint,
      region: stack.region,
      credentials: LOCAL_CREDENTIALS,
    });
    try {
      const page = await quicksight.send(
        new ListUserGroupsCommand({
          AwsAccountId: stack.quicksight.accountId,
          Namespace: stack.quicksight.namespace,
          UserName: stack.demo.user.email,
        }),
      );
      return (page.GroupList ?? []).flatMap((group) =>
        group.GroupName && companyOfGroup.has(group.GroupName) ? [group.GroupName] : [],
      );
    } finally {
      quicksight.destroy();
    }
  };

  const companiesInView = async (): Promise<string[]> => {
    const embed = await fetch(stack.functions.embed, {
      headers: { authorization: `Bearer ${user.accessToken}`, 'x-dashboard-id': 'sales-performance' },
    });
    if (embed.status !== 200) throw new Error(`The embed function answered ${embed.status}`);
    const page = await getOverTls(embedResponseSchema.parse(await embed.json()).url, ca);
    const line = /Companies in view: ([^<]*)</.exec(page.body);
    if (line === null) throw new Error('The embedded page names no companies in view');
    return line[1]!.split(', ').filter((name) => name !== '');
  };

  /** Sends one change per target at once and, until all are answered, watches QuickSight and the dashboard. */
  const run = async (targets: readonly string[]) => {
    const startedIn = (await groupsOfUser()).map((group) => companyOfGroup.get(group)!);
    const finished: RaceAnswer[] = [];
    let settled = false;
    const changes = Promise.all(
      targets.map(async (target) => {
        const answer = await callAdmin({
          action: 'SET_USER_COMPANIES',
          userEmail: stack.demo.user.email,
          companies: [target],
        });
        finished.push({ target, ...answer });
      }),
    ).finally(() => (settled = true));
    const most = { groups: 0, companiesInView: 0, looks: 0 };
    while (!settled) {
      const [groups, companies] = await Promise.all([groupsOfUser(), companiesInView()]);
      most.groups = Math.max(most.groups, groups.length);
      most.companiesInView = Math.max(most.companiesInView, companies.length);
      most.looks += 1;
    }
    await changes;
    return { startedIn, finished, most };
  };

  return { run, groupsOfUser, companiesInView, groupOf: (name: string) => groupOfCompany.get(name) };
}

import { ListUserGroupsCommand, QuickSightClient } from '@aws-sdk/client-quicksight';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { get } from 'node:https';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { COMPANY_MESSAGES, type Company } from '#contracts/companies.ts';
import { embedResponseSchema } from '#contracts/embed.ts';
import { LOCAL_CREDENTIALS, type StackInfo } from '#clients/local-stack.ts';
import { quicksightDataDir } from '#local/data-dir.ts';
import { findFreePortBase } from '#local/ports.ts';
import { spawnStack, type RunningStack } from '#local/stack-process.ts';
import { signInWithSrp, type SessionTokens } from '../e2e/support/cognito-session.ts';
import { noteSeedSignIns } from '../e2e/support/unused-totp-codes.ts';

/**
 * Simultaneous company changes of one user against the local stack: the QuickSight management
 * function's real bundle behind its function URL, the QuickSight emulator and DynamoDB behind
 * the IAM gate. While two administrators' changes race, QuickSight never has the user in two
 * companies' groups and the user's dashboard never draws two companies' rows; afterwards the
 * user is in exactly the group of the change that finished last.
 */

const NORTHWIND = 'Northwind Manufacturing';
const CONTOSO = 'Contoso Distribution';
const FABRIKAM = 'Fabrikam Industries';

/** A GET over https that trusts only the given certificate. */
function getOverTls(url: string, ca: string): Promise<string> {
  return new Promise((resolve, reject) => {
    get(url, { ca }, (response) => {
      let body = '';
      response.setEncoding('utf8');
      response.on('data', (chunk: string) => (body += chunk));
      response.on('end', () => resolve(body));
    }).on('error', reject);
  });
}

describe('simultaneous company changes of one user (local stack)', () => {
  let dataDir: string;
  let running: RunningStack;
  let stack: StackInfo;
  let admin: SessionTokens;
  let user: SessionTokens;
  let quicksight: QuickSightClient;
  let ca: string;
  let groupOfCompany: Map<string, string>;

  beforeAll(async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'portal-company-race-'));
    running = await spawnStack({ dataDir, portBase: await findFreePortBase() });
    stack = running.info;
    await noteSeedSignIns(stack);
    admin = await signInWithSrp(stack, stack.demo.admin);
    user = await signInWithSrp(stack, stack.demo.user);
    quicksight = new QuickSightClient({
      endpoint: stack.quicksight.endpoint,
      region: stack.region,
      credentials: LOCAL_CREDENTIALS,
    });
    ca = await readFile(join(quicksightDataDir(dataDir), 'tls', 'cert.pem'), 'utf8');
    const listed = (await callAdmin({ action: 'LIST_COMPANIES' })).body.companies as Company[];
    groupOfCompany = new Map(listed.map((company) => [company.name, company.groupName]));
  });

  afterAll(async () => {
    quicksight?.destroy();
    await running?.stop();
    await rm(dataDir, { recursive: true, force: true });
  });

  async function callAdmin(body: Record<string, unknown>) {
    const response = await fetch(stack.functions.quicksightAdmin, {
      method: 'POST',
      headers: { authorization: `Bearer ${admin.accessToken}`, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    return { status: response.status, body: (await response.json()) as Record<string, unknown> };
  }

  /** The portal's company groups QuickSight has the demo user in. */
  async function groupsOfUser(): Promise<string[]> {
    const page = await quicksight.send(
      new ListUserGroupsCommand({
        AwsAccountId: stack.quicksight.accountId,
        Namespace: stack.quicksight.namespace,
        UserName: stack.demo.user.email,
      }),
    );
    const companyGroups = new Set(groupOfCompany.values());
    return (page.GroupList ?? []).flatMap((group) =>
      group.GroupName && companyGroups.has(group.GroupName) ? [group.GroupName] : [],
    );
  }

  /** The companies the demo user's default dashboard draws rows of, as its embedded page says. */
  async function companiesInView(): Promise<string[]> {
    const embed = await fetch(stack.functions.embed, {
      headers: { authorization: `Bearer ${user.accessToken}`, 'x-dashboard-id': 'sales-performance' },
    });
    expect(embed.status).toBe(200);
    const page = await getOverTls(embedResponseSchema.parse(await embed.json()).url, ca);
    const line = /Companies in view: ([^<]*)</.exec(page);
    expect(line).not.toBeNull();
    return line![1]!.split(', ').filter((name) => name !== '');
  }

  /** Sends the changes at once and, until they are answered, watches QuickSight and the dashboard. */
  async function race(targets: readonly string[]) {
    const finished: { target: string; status: number; body: Record<string, unknown> }[] = [];
    let settled = false;
    const changes = Promise.all(
      targets.map(async (target) => {
        const res = await callAdmin({
          action: 'SET_USER_COMPANIES',
          userEmail: stack.demo.user.email,
          companies: [target],
        });
        finished.push({ target, ...res });
      }),
    ).finally(() => (settled = true));
    const seen = { groups: 0, companies: 0, looks: 0 };
    while (!settled) {
      const [groups, companies] = await Promise.all([groupsOfUser(), companiesInView()]);
      seen.groups = Math.max(seen.groups, groups.length);
      seen.companies = Math.max(seen.companies, companies.length);
      seen.looks += 1;
    }
    await changes;
    return { finished, seen };
  }

  it.each([
    ['two', [CONTOSO, FABRIKAM]],
    ['twelve', Array.from({ length: 12 }, (_, i) => [CONTOSO, FABRIKAM, NORTHWIND][i % 3]!)],
  ])('%s leave the user in exactly the last change’s group, and one company in view throughout', async (_, targets) => {
    const companyOfGroup = new Map([...groupOfCompany].map(([name, group]) => [group, name]));
    const startedIn = (await groupsOfUser()).map((group) => companyOfGroup.get(group));
    const { finished, seen } = await race(targets);
    for (const { status, body } of finished) {
      if (status !== 200)
        expect({ status, error: body.error }).toEqual({ status: 409, error: COMPANY_MESSAGES.changeInProgress });
    }
    const done = finished.filter(({ status }) => status === 200);
    expect(done.length).toBeGreaterThan(0);
    // One after the other: each change found the companies the change before it left.
    let companies = startedIn;
    for (const { target, body } of done) {
      expect(body.before).toEqual(companies);
      companies = [target];
    }
    const last = done.at(-1)!.target;
    expect(await groupsOfUser()).toEqual([groupOfCompany.get(last)]);
    expect(await companiesInView()).toEqual([last]);
    expect(seen.looks).toBeGreaterThan(0);
    expect(seen.groups).toBeLessThanOrEqual(1);
    expect(seen.companies).toBeLessThanOrEqual(1);
  });
});

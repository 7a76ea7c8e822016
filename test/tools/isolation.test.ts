import { CognitoIdentityProviderClient, ListUsersCommand } from '@aws-sdk/client-cognito-identity-provider';
import {
  CreateGroupMembershipCommand,
  DeleteGroupMembershipCommand,
  ListUsersCommand as ListQuickSightUsersCommand,
  QuickSightClient,
} from '@aws-sdk/client-quicksight';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listCompaniesResponseSchema, type Company } from '#contracts/companies.ts';
import { VERIFY_PREFIX } from '#contracts/verification.ts';
import { LOCAL_CREDENTIALS } from '#clients/local-stack.ts';
import { sampleDataset } from '#emulators/sample-dashboards/data/generator.ts';
import { signInWithSrp } from '../e2e/support/cognito-session.ts';
import { runTool, sharedTestStack, type TestStack } from './support/run-tool.ts';

/** The dashboards whose pages draw one table row per distributor. */
const DISTRIBUTOR_TABLES = ['distributor-scorecard', 'sales-performance'];

/** The block of the matrix for a dashboard and path: each user's counts by the header's companies. */
function matrixBlock(stdout: string, dashboardId: string, path: string): Map<string, Map<string, string>> {
  const lines = stdout.split('\n');
  const start = lines.indexOf(`  ${dashboardId} | ${path}`);
  expect(start).toBeGreaterThan(-1);
  const header = lines[start + 1]!.trim()
    .split(/\s{2,}/)
    .slice(1);
  const rows = new Map<string, Map<string, string>>();
  for (const line of lines.slice(start + 2)) {
    if (!line.startsWith('    ')) break;
    const cells = line.trim().split(/\s{2,}/);
    rows.set(cells[0]!, new Map(header.map((company, index) => [company, cells[index + 1]!])));
  }
  return rows;
}

describe('npm run isolation', () => {
  let stack: TestStack;
  let companies: Company[];
  let quicksight: QuickSightClient;
  let adminToken: string;

  beforeAll(async () => {
    stack = sharedTestStack();
    const { info } = stack;
    adminToken = (await signInWithSrp(info, info.demo.admin)).accessToken;
    companies = await listCompanies();
    quicksight = new QuickSightClient({
      region: info.region,
      credentials: LOCAL_CREDENTIALS,
      endpoint: info.quicksight.endpoint,
    });
  });

  afterAll(async () => {
    quicksight?.destroy();
  });

  const listCompanies = async () => {
    const response = await fetch(stack.info.functions.quicksightAdmin, {
      method: 'POST',
      headers: { authorization: `Bearer ${adminToken}`, 'content-type': 'application/json' },
      body: JSON.stringify({ action: 'LIST_COMPANIES' }),
    });
    return listCompaniesResponseSchema.parse(await response.json()).companies;
  };

  /** Accounts, QuickSight users and companies a run could leave behind. */
  async function leftovers(): Promise<string[]> {
    const { info } = stack;
    const cognito = new CognitoIdentityProviderClient({
      region: info.region,
      credentials: LOCAL_CREDENTIALS,
      endpoint: info.cognito.endpoint,
    });
    try {
      const accounts = (await cognito.send(new ListUsersCommand({ UserPoolId: info.cognito.userPoolId }))).Users ?? [];
      const qsUsers =
        (
          await quicksight.send(
            new ListQuickSightUsersCommand({ AwsAccountId: info.quicksight.accountId, Namespace: 'default' }),
          )
        ).UserList ?? [];
      return [
        ...accounts.flatMap((user) => user.Attributes?.find((a) => a.Name === 'email')?.Value ?? []),
        ...qsUsers.flatMap((user) => user.Email ?? []),
        ...(await listCompanies()).map((company) => company.name),
      ].filter((name) => name.startsWith(VERIFY_PREFIX));
    } finally {
      cognito.destroy();
    }
  }

  it('prints the matrix of the seeded stack with 0 cross-company rows, passes the negatives and leaves nothing', async () => {
    const { code, stdout } = await runTool('isolation', stack.localArgs);
    expect(stdout).toContain('Cross-company rows: 0');
    expect(stdout).not.toContain('[FAIL]');
    expect(code).toBe(0);
    for (const step of [
      'A user in no company sees no rows',
      'A removed assignment shows nothing',
      'A deleted company shows nothing',
      'An ended session shows nothing',
    ])
      expect(stdout).toMatch(new RegExp(`^\\[ OK \\] ${step}`, 'm'));

    // Each company's user sees exactly its company's distributors, the owner both of its companies, nobody else any.
    const names = companies.map((company) => company.name).sort((a, b) => a.localeCompare(b));
    const distributorsOf = (company: string) =>
      String(sampleDataset().distributors.filter((distributor) => distributor.company === company).length);
    const owner = `owner of ${names[0]} and ${names[1]}`;
    const factsOf = (company: string) =>
      String(sampleDataset().facts.filter((fact) => fact.company === company).length);
    for (const dashboardId of DISTRIBUTOR_TABLES) {
      const drawn = matrixBlock(stdout, dashboardId, 'embedded dashboard as drawn');
      expect([...drawn.keys()]).toEqual([...names, owner, 'no company']);
      for (const user of names)
        for (const company of names)
          expect(drawn.get(user)!.get(company)).toBe(company === user ? distributorsOf(company) : '0');
      expect(drawn.get(owner)!.get(names[0]!)).toBe(distributorsOf(names[0]!));
      expect(drawn.get(owner)!.get(names[1]!)).toBe(distributorsOf(names[1]!));
      expect(drawn.get(owner)!.get(names[2]!)).toBe('0');
      expect([...drawn.get('no company')!.values()]).toEqual(names.map(() => '0'));

      const views = matrixBlock(stdout, dashboardId, 'GraphQL listTableauViews');
      for (const user of names)
        for (const company of names) expect(views.get(user)!.get(company)).toBe(company === user ? '1' : '0');

      // The file a subscription mails (one CSV row per monthly fact): each user's companies' facts, no other's.
      const mailed = matrixBlock(stdout, dashboardId, 'emailed file (CSV)');
      expect([...mailed.keys()]).toEqual([...names, owner, 'no company']);
      for (const user of names)
        for (const company of names)
          expect(mailed.get(user)!.get(company)).toBe(company === user ? factsOf(company) : '0');
      expect(mailed.get(owner)!.get(names[0]!)).toBe(factsOf(names[0]!));
      expect(mailed.get(owner)!.get(names[1]!)).toBe(factsOf(names[1]!));
      expect(mailed.get(owner)!.get(names[2]!)).toBe('0');
      expect(names.map((company) => mailed.get('no company')!.get(company))).toEqual(names.map(() => '0'));
    }
    expect(stdout).toMatch(/^\[ OK \] Every emailed file \(CSV\) was made and read/m);
    expect(await leftovers()).toEqual([]);
  });

  it('fails, naming it, on a membership planted in QuickSight behind the portal', async () => {
    const { info } = stack;
    // The demo user holds Northwind only; QuickSight is told, directly, that they are in Fabrikam's group too.
    const fabrikam = companies.find((company) => company.name === 'Fabrikam Industries')!;
    const membership = {
      AwsAccountId: info.quicksight.accountId,
      Namespace: info.quicksight.namespace,
      GroupName: fabrikam.groupName,
      MemberName: info.demo.user.email,
    };
    await quicksight.send(new CreateGroupMembershipCommand(membership));
    try {
      const { code, stdout } = await runTool('isolation', stack.localArgs);
      expect(code).toBe(1);
      expect(stdout).toMatch(/^\[FAIL\] Every user's QuickSight groups equal the portal's records/m);
      expect(stdout).toContain(`member-unexpected (Fabrikam Industries) ${info.demo.user.email}`);
      expect(stdout).toContain('Isolation NOT proven');
    } finally {
      await quicksight.send(new DeleteGroupMembershipCommand(membership));
    }
    expect(await leftovers()).toEqual([]);
  });

  it('refuses an unknown option with the usage and exit code 2', async () => {
    const { code, stderr } = await runTool('isolation', [...stack.localArgs, '--company']);
    expect(code).toBe(2);
    expect(stderr).toContain("Unknown option '--company'");
    expect(stderr).toContain('Usage: npm run isolation');
  });
});

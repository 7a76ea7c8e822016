/**
 * Companies at 10,000 users (100 with `smoke`): the QuickSight calls of one user's company change
 * (SET_USER_COMPANIES) and of the company-access check (CHECK_COMPANY_ACCESS), against the
 * fewest the API allows. The handler is the real one, DynamoDB is dynalite and QuickSight
 * and S3 are served from memory (test/lambdas/support/companies.ts), paging as QuickSight
 * does (100 per page), so the call pattern is what is measured: list calls only for the
 * check, never one call per user.
 */
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import {
  DescribeUserCommand,
  ListGroupMembershipsCommand,
  ListGroupsCommand,
  ListUsersCommand,
} from '@aws-sdk/client-quicksight';
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import {
  fakeQuickSight,
  groupArnOf,
  groupNameOf,
  scopedDataSet,
  seedCompany,
} from '#test/lambdas/support/companies.ts';
import { ADMIN, COMPANY_SETTINGS, invoke, loadHandler, startHarness } from '#test/lambdas/support/harness.ts';
import { RULES_COLUMNS } from '#contracts/company-rules.ts';
import { writeAll } from './batch-write.ts';
import type { BenchOptions, BenchRow } from './types.ts';

const FULL = { users: 10_000, companies: 40 };
const SMOKE = { users: 100, companies: 4 };
const PAGE = 100;
const SHARED_DASHBOARD = 'sales-performance';

const emailOf = (index: number) => `user${String(index).padStart(5, '0')}@example.com`;
const pages = (count: number) => Math.max(1, Math.ceil(count / PAGE));

export async function run(options: BenchOptions = { smoke: false }): Promise<BenchRow[]> {
  const { users: USERS, companies: COMPANIES } = options.smoke ? SMOKE : FULL;
  const companyIdOf = (index: number) => `c${String(index % COMPANIES).padStart(3, '0')}`;
  const h = await startHarness({ POWERTOOLS_LOG_LEVEL: 'SILENT' });
  try {
    await h.reset();
    const handler = await loadHandler('quicksight-admin');
    const token = await h.token(ADMIN);
    const client = DynamoDBDocumentClient.from(
      new DynamoDBClient({
        endpoint: h.dynamo.endpoint,
        region: 'us-east-2',
        credentials: { accessKeyId: 'test', secretAccessKey: 'test' },
      }),
    );

    // 40 companies with their groups, 10,000 registered users spread over them, all in step.
    const emails = Array.from({ length: USERS }, (_, index) => emailOf(index));
    const qs = fakeQuickSight(h, emails);
    const names = new Map<string, string>();
    for (let index = 0; index < COMPANIES; index += 1) {
      const id = companyIdOf(index);
      names.set(id, `Company ${index}`);
      await seedCompany(h, id, `Company ${index}`);
      qs.groups.set(groupNameOf(id), new Set());
    }
    await writeAll(
      client,
      process.env.STATE_TABLE!,
      emails.map((email, index) => ({
        pk: 'MEMBERSHIP',
        sk: email,
        companyIds: [companyIdOf(index)],
        owner: false,
        updatedAt: '2026-01-01T00:00:00.000Z',
      })),
    );
    emails.forEach((email, index) => qs.groups.get(groupNameOf(companyIdOf(index)))!.add(email));
    const rules = [...names]
      .map(([id, name]) => ({ groupArn: groupArnOf(id), name }))
      .sort((a, b) => a.groupArn.localeCompare(b.groupArn));
    qs.objects.set(
      'company-rules/rules.csv',
      // The file as the portal writes it: one group rule per company, UserARN empty.
      `${RULES_COLUMNS.join(',')}\n${rules.map((rule) => `,${rule.groupArn},${rule.name}`).join('\n')}\n`,
    );
    qs.dataSets.set(COMPANY_SETTINGS.dataSetId, { DataSetId: COMPANY_SETTINGS.dataSetId });
    qs.ingestions.push({ id: 'rules-1', status: 'COMPLETED', created: new Date() });
    // One dashboard in use by two companies (company-scoped): the check describes it and its dataset.
    await h.tables.put('DASHBOARDS_TABLE', {
      id: 'm-sales',
      dashboardId: SHARED_DASHBOARD,
      dashboardName: 'Sales',
      dashboardLink: 'https://bi.example.com/sales',
      isActive: true,
      createdAt: 't',
      updatedAt: 't',
    });
    for (const index of [0, 1]) {
      await h.tables.put('VIEWS_TABLE', {
        id: `v${index}`,
        userEmail: emailOf(index),
        quicksightDashboardId: SHARED_DASHBOARD,
        name: 'Sales',
        createdAt: 't',
        updatedAt: 't',
      });
    }
    qs.dashboards.set(SHARED_DASHBOARD, ['monthly-facts']);
    // The group rules, and the tag rule an emailed file's rows are chosen by: a dashboard in step.
    qs.dataSets.set('monthly-facts', {
      ...scopedDataSet('monthly-facts'),
      RowLevelPermissionTagConfiguration: {
        Status: 'ENABLED',
        TagRules: [{ TagKey: 'company', ColumnName: 'company', TagMultiValueDelimiter: ',' }],
      },
    });

    const call = async (body: Record<string, unknown>) => {
      h.quicksight.resetHistory();
      const started = performance.now();
      const res = await invoke(handler, { token, body });
      if (res.status !== 200)
        throw new Error(`${String(body.action)} answered ${res.status}: ${JSON.stringify(res.body)}`);
      return { body: res.body, ms: performance.now() - started, calls: h.quicksight.calls().length };
    };

    const change = await call({
      action: 'SET_USER_COMPANIES',
      userEmail: emailOf(7),
      companies: [names.get(companyIdOf(8))!],
    });
    // The least a move can do: look the user up, leave the old group, join the new one.
    const changeMinimum = 3;

    const check = await call({ action: 'CHECK_COMPANY_ACCESS', fix: false });
    const differences = (check.body.differences as unknown[]).length;
    const membersPerGroup = [...qs.groups.values()].map((members) => members.size);
    const checkMinimum =
      pages(USERS) +
      pages(COMPANIES) +
      membersPerGroup.reduce((sum, size) => sum + pages(size), 0) +
      1 /* ListIngestions */ +
      2; /* DescribeDashboard, DescribeDataSet */
    const perUserCalls = h.quicksight.commandCalls(DescribeUserCommand).length;

    const usersLabel = USERS.toLocaleString('en-US');
    const area = `companies (${USERS >= 1000 ? `${USERS / 1000}k` : USERS} users, ${COMPANIES} companies)`;
    // The move happened: the user is in the new company's group and no longer in the old one.
    const moved =
      qs.groups.get(groupNameOf(companyIdOf(8)))!.has(emailOf(7)) &&
      !qs.groups.get(groupNameOf(companyIdOf(7)))!.has(emailOf(7));
    return [
      {
        area,
        metric: 'company change for a user: QuickSight calls',
        value: String(change.calls),
        target: `= ${changeMinimum}`,
        ok: change.calls === changeMinimum,
        kind: 'count',
      },
      {
        area,
        metric: "company change for a user: in the new company's group only",
        value: moved ? 'yes' : 'no',
        target: 'yes',
        ok: moved,
        kind: 'count',
      },
      { area, metric: 'company change for a user: handler time', value: `${change.ms.toFixed(0)} ms` },
      {
        area,
        metric: `check of ${usersLabel} users: QuickSight calls`,
        value: String(check.calls),
        target: `= ${checkMinimum}`,
        ok: check.calls === checkMinimum,
        kind: 'count',
      },
      {
        area,
        metric: `check of ${usersLabel} users: list calls (users, groups, members)`,
        value: `${h.quicksight.commandCalls(ListUsersCommand).length}, ${h.quicksight.commandCalls(ListGroupsCommand).length}, ${h.quicksight.commandCalls(ListGroupMembershipsCommand).length}`,
      },
      {
        area,
        metric: `check of ${usersLabel} users: per-user calls`,
        value: String(perUserCalls),
        target: '= 0',
        ok: perUserCalls === 0,
        kind: 'count',
      },
      {
        area,
        metric: `check of ${usersLabel} users: differences found`,
        value: String(differences),
        target: '= 0',
        ok: differences === 0,
        kind: 'count',
      },
      { area, metric: `check of ${usersLabel} users: handler time`, value: `${check.ms.toFixed(0)} ms` },
    ];
  } finally {
    await h.close();
  }
}

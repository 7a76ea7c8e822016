import {
  DeleteUserCommand,
  DescribeDashboardCommand,
  DescribeDashboardPermissionsCommand,
  DescribeUserCommand,
  GenerateEmbedUrlForRegisteredUserCommand,
  ListDashboardsCommand,
  ListUsersCommand,
  UpdateDashboardPermissionsCommand,
} from '@aws-sdk/client-quicksight';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { SAMPLE_DASHBOARDS } from '#emulators/quicksight/index.ts';
import {
  ACCOUNT_ID,
  NAMESPACE,
  REGION,
  VIEWER_ACTIONS,
  sdkError,
  startTestEmulator,
  userArn,
  type TestEmulator,
} from './quicksight-support.ts';

const USER = 'demo.user@example.com';

let t: TestEmulator;
beforeEach(async () => {
  t = await startTestEmulator();
});
afterEach(async () => {
  await t.close();
});

describe('QuickSight users', () => {
  it('registers a QUICKSIGHT user and describes it with its ARN', async () => {
    const registered = await t.register(USER);
    expect(registered.Status).toBe(201);
    expect(registered.User).toMatchObject({
      Arn: `arn:aws:quicksight:${REGION}:${ACCOUNT_ID}:user/default/${USER}`,
      UserName: USER,
      Email: USER,
      Role: 'READER',
      IdentityType: 'QUICKSIGHT',
      Active: true,
    });
    const described = await t.client.send(
      new DescribeUserCommand({ AwsAccountId: ACCOUNT_ID, Namespace: NAMESPACE, UserName: USER }),
    );
    expect(described.Status).toBe(200);
    expect(described.User?.Arn).toBe(userArn(USER));
    expect(described.RequestId).toMatch(/^[0-9a-f-]{36}$/);
  });

  // "UserInvitationUrl: The URL the user visits to complete registration and provide a password.
  // This is returned only for users with an identity type of QUICKSIGHT."
  // https://docs.aws.amazon.com/quicksight/latest/APIReference/API_RegisterUser.html
  it('returns a UserInvitationUrl for a QUICKSIGHT identity, a new one per registration, on the emulator', async () => {
    const first = await t.register(USER);
    const second = await t.register('second@example.com');
    for (const answer of [first, second]) {
      const url = new URL(answer.UserInvitationUrl ?? '');
      expect(url.origin).toBe(new URL(t.emulator.url).origin);
      expect(url.searchParams.get('invitation')).toMatch(/^[0-9a-f-]{36}$/);
    }
    expect(first.UserInvitationUrl).not.toBe(second.UserInvitationUrl);
    const page = await fetch(first.UserInvitationUrl!);
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('Local QuickSight');
    // Not part of the user: DescribeUser does not carry it.
    const described = await t.client.send(
      new DescribeUserCommand({ AwsAccountId: ACCOUNT_ID, Namespace: NAMESPACE, UserName: USER }),
    );
    expect(JSON.stringify(described)).not.toContain('invitation');
  });

  it('refuses to register an existing user with ResourceExistsException', async () => {
    await t.register(USER);
    const error = await sdkError(t.register(USER, { UserRole: 'AUTHOR' }));
    expect(error).toMatchObject({ name: 'ResourceExistsException', status: 409 });
    const described = await t.client.send(
      new DescribeUserCommand({ AwsAccountId: ACCOUNT_ID, Namespace: NAMESPACE, UserName: USER }),
    );
    expect(described.User?.Role).toBe('READER');
  });

  it.each([
    ['an unknown role', { UserRole: 'OWNER' }],
    ['an IAM identity', { IdentityType: 'IAM', IamArn: 'arn:aws:iam::123456789012:role/r', SessionName: 's' }],
    ['no user name', { UserName: undefined }],
    ['a malformed email', { Email: 'not-an-email' }],
    ['a slash in the user name', { UserName: 'a/b' }],
  ])('rejects %s with InvalidParameterValueException and registers nothing', async (_case, overrides) => {
    const error = await sdkError(t.register('someone@example.com', overrides));
    expect(error).toMatchObject({ name: 'InvalidParameterValueException', status: 400 });
    const listed = await t.client.send(new ListUsersCommand({ AwsAccountId: ACCOUNT_ID, Namespace: NAMESPACE }));
    expect(listed.UserList).toEqual([]);
  });

  it('answers ResourceNotFoundException for an unknown user', async () => {
    const error = await sdkError(
      t.client.send(
        new DescribeUserCommand({ AwsAccountId: ACCOUNT_ID, Namespace: NAMESPACE, UserName: 'nobody@example.com' }),
      ),
    );
    expect(error).toMatchObject({ name: 'ResourceNotFoundException', status: 404 });
    expect(error.message).toContain(userArn('nobody@example.com'));
  });

  it('answers ResourceNotFoundException for a namespace the account does not have', async () => {
    const error = await sdkError(t.register(USER, { Namespace: 'partners' }));
    expect(error.name).toBe('ResourceNotFoundException');
  });

  it('answers AccessDeniedException for another account', async () => {
    const error = await sdkError(
      t.client.send(new ListUsersCommand({ AwsAccountId: '999999999999', Namespace: NAMESPACE })),
    );
    expect(error).toMatchObject({ name: 'AccessDeniedException', status: 401 });
  });

  it('lists users in pages of at most 100 with NextToken', async () => {
    const names = Array.from({ length: 130 }, (_, i) => `user${String(i).padStart(3, '0')}@example.com`);
    for (const name of names) await t.register(name);
    const first = await t.client.send(
      new ListUsersCommand({ AwsAccountId: ACCOUNT_ID, Namespace: NAMESPACE, MaxResults: 100 }),
    );
    expect(first.UserList).toHaveLength(100);
    expect(first.NextToken).toBeTruthy();
    const second = await t.client.send(
      new ListUsersCommand({
        AwsAccountId: ACCOUNT_ID,
        Namespace: NAMESPACE,
        MaxResults: 100,
        NextToken: first.NextToken,
      }),
    );
    expect(second.UserList).toHaveLength(30);
    expect(second.NextToken).toBeUndefined();
    expect([...(first.UserList ?? []), ...(second.UserList ?? [])].map((u) => u.UserName)).toEqual(names);
    const defaultPage = await t.client.send(new ListUsersCommand({ AwsAccountId: ACCOUNT_ID, Namespace: NAMESPACE }));
    expect(defaultPage.UserList).toHaveLength(100);
  });

  it('rejects MaxResults above 100 and a forged NextToken', async () => {
    expect(
      await sdkError(
        t.client.send(new ListUsersCommand({ AwsAccountId: ACCOUNT_ID, Namespace: NAMESPACE, MaxResults: 101 })),
      ),
    ).toMatchObject({ name: 'InvalidParameterValueException' });
    expect(
      await sdkError(
        t.client.send(new ListUsersCommand({ AwsAccountId: ACCOUNT_ID, Namespace: NAMESPACE, NextToken: 'forged' })),
      ),
    ).toMatchObject({ name: 'InvalidNextTokenException' });
  });

  it('deletes a user together with the dashboard permissions granted to it', async () => {
    await t.register(USER);
    await t.grantViewer('sales-performance', USER);
    const deleted = await t.client.send(
      new DeleteUserCommand({ AwsAccountId: ACCOUNT_ID, Namespace: NAMESPACE, UserName: USER }),
    );
    expect(deleted.Status).toBe(200);
    expect(
      await sdkError(
        t.client.send(new DescribeUserCommand({ AwsAccountId: ACCOUNT_ID, Namespace: NAMESPACE, UserName: USER })),
      ),
    ).toMatchObject({ name: 'ResourceNotFoundException' });
    const permissions = await t.client.send(
      new DescribeDashboardPermissionsCommand({ AwsAccountId: ACCOUNT_ID, DashboardId: 'sales-performance' }),
    );
    expect(permissions.Permissions).toEqual([]);
    expect(
      await sdkError(
        t.client.send(new DeleteUserCommand({ AwsAccountId: ACCOUNT_ID, Namespace: NAMESPACE, UserName: USER })),
      ),
    ).toMatchObject({ name: 'ResourceNotFoundException' });
  });
});

describe('QuickSight dashboards', () => {
  it('lists the sample dashboards and describes each', async () => {
    const listed = await t.client.send(new ListDashboardsCommand({ AwsAccountId: ACCOUNT_ID }));
    expect(listed.DashboardSummaryList?.map((d) => [d.DashboardId, d.Name])).toEqual(
      SAMPLE_DASHBOARDS.map((d) => [d.dashboardId, d.name]),
    );
    expect(SAMPLE_DASHBOARDS.length).toBeGreaterThanOrEqual(3);
    for (const sample of SAMPLE_DASHBOARDS) {
      const described = await t.client.send(
        new DescribeDashboardCommand({ AwsAccountId: ACCOUNT_ID, DashboardId: sample.dashboardId }),
      );
      expect(described.Dashboard).toMatchObject({
        DashboardId: sample.dashboardId,
        Arn: `arn:aws:quicksight:${REGION}:${ACCOUNT_ID}:dashboard/${sample.dashboardId}`,
        Name: sample.name,
        Version: { VersionNumber: 1, Status: 'CREATION_SUCCESSFUL', Description: sample.description },
      });
      expect(described.Dashboard?.CreatedTime).toBeInstanceOf(Date);
    }
  });

  it('pages the dashboard list', async () => {
    const first = await t.client.send(new ListDashboardsCommand({ AwsAccountId: ACCOUNT_ID, MaxResults: 2 }));
    const second = await t.client.send(
      new ListDashboardsCommand({ AwsAccountId: ACCOUNT_ID, MaxResults: 2, NextToken: first.NextToken }),
    );
    expect(first.DashboardSummaryList).toHaveLength(2);
    expect(second.DashboardSummaryList).toHaveLength(SAMPLE_DASHBOARDS.length - 2);
  });

  it('answers ResourceNotFoundException for an unknown dashboard', async () => {
    for (const command of [
      new DescribeDashboardCommand({ AwsAccountId: ACCOUNT_ID, DashboardId: 'missing' }),
      new DescribeDashboardPermissionsCommand({ AwsAccountId: ACCOUNT_ID, DashboardId: 'missing' }),
    ]) {
      expect(await sdkError(t.client.send(command as DescribeDashboardCommand))).toMatchObject({
        name: 'ResourceNotFoundException',
        status: 404,
      });
    }
  });

  it('grants and revokes dashboard permissions per principal', async () => {
    await t.register(USER);
    await t.register('other@example.com');
    const granted = await t.client.send(
      new UpdateDashboardPermissionsCommand({
        AwsAccountId: ACCOUNT_ID,
        DashboardId: 'distributor-scorecard',
        GrantPermissions: [
          { Principal: userArn(USER), Actions: VIEWER_ACTIONS },
          { Principal: userArn('other@example.com'), Actions: ['quicksight:DescribeDashboard'] },
        ],
      }),
    );
    expect(granted.DashboardArn).toBe(`arn:aws:quicksight:${REGION}:${ACCOUNT_ID}:dashboard/distributor-scorecard`);
    expect(granted.Permissions).toHaveLength(2);

    await t.client.send(
      new UpdateDashboardPermissionsCommand({
        AwsAccountId: ACCOUNT_ID,
        DashboardId: 'distributor-scorecard',
        RevokePermissions: [{ Principal: userArn(USER), Actions: VIEWER_ACTIONS }],
        GrantPermissions: [{ Principal: userArn('other@example.com'), Actions: ['quicksight:QueryDashboard'] }],
      }),
    );
    const described = await t.client.send(
      new DescribeDashboardPermissionsCommand({ AwsAccountId: ACCOUNT_ID, DashboardId: 'distributor-scorecard' }),
    );
    expect(described.Permissions).toEqual([
      {
        Principal: userArn('other@example.com'),
        Actions: ['quicksight:DescribeDashboard', 'quicksight:QueryDashboard'],
      },
    ]);
  });

  it.each([
    ['a user that does not exist', { Principal: userArn('ghost@example.com'), Actions: VIEWER_ACTIONS }],
    [
      'a principal of another account',
      { Principal: `arn:aws:quicksight:${REGION}:999999999999:user/default/x`, Actions: VIEWER_ACTIONS },
    ],
    ['an unknown action', { Principal: userArn(USER), Actions: ['quicksight:EverythingPlease'] }],
  ])('rejects a grant to %s and changes nothing', async (_case, permission) => {
    await t.register(USER);
    const error = await sdkError(
      t.client.send(
        new UpdateDashboardPermissionsCommand({
          AwsAccountId: ACCOUNT_ID,
          DashboardId: 'sales-performance',
          GrantPermissions: [permission],
        }),
      ),
    );
    expect(error.name).toBe('InvalidParameterValueException');
    const described = await t.client.send(
      new DescribeDashboardPermissionsCommand({ AwsAccountId: ACCOUNT_ID, DashboardId: 'sales-performance' }),
    );
    expect(described.Permissions).toEqual([]);
  });
});

describe('GenerateEmbedUrlForRegisteredUser', () => {
  const generate = (overrides: Record<string, unknown> = {}) =>
    t.client.send(
      new GenerateEmbedUrlForRegisteredUserCommand({
        AwsAccountId: ACCOUNT_ID,
        UserArn: userArn(USER),
        SessionLifetimeInMinutes: 60,
        AllowedDomains: ['http://localhost:5173'],
        ExperienceConfiguration: { Dashboard: { InitialDashboardId: 'sales-performance' } },
        ...overrides,
      }),
    );

  it('returns a one-time embed URL on the emulator for a permitted user', async () => {
    await t.register(USER);
    await t.grantViewer('sales-performance', USER);
    const result = await generate();
    expect(result.Status).toBe(200);
    expect(result.EmbedUrl).toMatch(
      new RegExp(`^${t.emulator.url}/embed/[0-9a-f-]{36}/dashboards/sales-performance\\?code=[A-Za-z0-9_-]{43}$`),
    );
    expect((await generate()).EmbedUrl).not.toBe(result.EmbedUrl);
  });

  it('answers QuickSightUserNotFoundException for an unknown user, ResourceNotFoundException for an unknown dashboard', async () => {
    expect(await sdkError(generate())).toMatchObject({ name: 'QuickSightUserNotFoundException', status: 404 });
    await t.register(USER);
    expect(
      await sdkError(generate({ ExperienceConfiguration: { Dashboard: { InitialDashboardId: 'no-such-dashboard' } } })),
    ).toMatchObject({ name: 'ResourceNotFoundException', status: 404 });
  });

  it('issues the URL for a user without permission on the dashboard (the page refuses later)', async () => {
    await t.register(USER);
    await t.grantViewer('inventory-margins', USER);
    expect((await generate()).EmbedUrl).toMatch(/\/dashboards\/sales-performance\?code=/);
  });

  it.each([
    ['a session shorter than 15 minutes', 14],
    ['a session longer than 600 minutes', 601],
    ['a fractional session lifetime', 30.5],
  ])('rejects %s with SessionLifetimeInMinutesInvalidException', async (_case, minutes) => {
    await t.register(USER);
    expect(await sdkError(generate({ SessionLifetimeInMinutes: minutes }))).toMatchObject({
      name: 'SessionLifetimeInMinutesInvalidException',
      status: 400,
    });
  });

  it.each([
    [
      'more than three allowed domains',
      {
        AllowedDomains: [
          'https://a.example.com',
          'https://b.example.com',
          'https://c.example.com',
          'https://d.example.com',
        ],
      },
    ],
    ['plain http for a public domain', { AllowedDomains: ['http://portal.example.com'] }],
    ['plain http for a loopback IP address', { AllowedDomains: ['http://127.0.0.1:5173'] }],
    ['an IPv4 address over https', { AllowedDomains: ['https://111.222.33.44:1234'] }],
    ['an IPv6 address', { AllowedDomains: ['https://[::1]:8443'] }],
    ['a domain with a path', { AllowedDomains: ['https://portal.example.com/app'] }],
    ['a wildcard that is not the first label', { AllowedDomains: ['https://example.com.*.example-1.co.uk'] }],
    [
      'a domain carrying a CSP directive',
      { AllowedDomains: ["https://portal.example.com; script-src 'unsafe-inline'"] },
    ],
    [
      'a user ARN that is not a user',
      { UserArn: `arn:aws:quicksight:${REGION}:${ACCOUNT_ID}:dashboard/sales-performance` },
    ],
    [
      'another experience than a dashboard',
      { ExperienceConfiguration: { QuickSightConsole: { InitialPath: '/start' } } },
    ],
  ])('rejects %s with InvalidParameterValueException', async (_case, overrides) => {
    await t.register(USER);
    await t.grantViewer('sales-performance', USER);
    expect(await sdkError(generate(overrides))).toMatchObject({ name: 'InvalidParameterValueException', status: 400 });
  });

  it('names the refused domain and the limit in its messages', async () => {
    await t.register(USER);
    expect((await sdkError(generate({ AllowedDomains: ['http://127.0.0.1:5173'] }))).message).toBe(
      'The domain http://127.0.0.1:5173 in AllowedDomains is not valid: IP addresses are not supported.',
    );
    expect(
      (
        await sdkError(
          generate({
            AllowedDomains: [
              'https://a.example.com',
              'https://b.example.com',
              'https://c.example.com',
              'https://d.example.com',
            ],
          }),
        )
      ).message,
    ).toBe('AllowedDomains contains 4 domains; you can specify at most 3 domains or subdomains.');
  });

  it('accepts https domains with subdomain wildcards and ports, internationalized names and http://localhost', async () => {
    await t.register(USER);
    await t.grantViewer('sales-performance', USER);
    const result = await generate({
      AllowedDomains: ['https://*.example.com', 'https://portal.example.org:8443', 'http://localhost:5173'],
    });
    expect(result.EmbedUrl).toBeTruthy();
    expect(
      (await generate({ AllowedDomains: ['https://www.\u30A2\u30DE\u30BE\u30F3.jp', 'http://localhost'] })).EmbedUrl,
    ).toBeTruthy();
  });
});

import {
  DeleteUserCommand,
  DescribeDashboardPermissionsCommand,
  DescribeUserCommand,
  GenerateEmbedUrlForRegisteredUserCommand,
  ListUsersCommand,
  RegisterUserCommand,
  UpdateDashboardPermissionsCommand,
  type User,
} from '@aws-sdk/client-quicksight';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  NAMESPACE,
  VIEWER_ACTIONS,
  sdkError,
  startQuickSightTarget,
  type QuickSightTarget,
} from './support/quicksight-target.ts';

/**
 * The QuickSight behaviour the product relies on, each test named after the API reference
 * page it follows. Runs against the local emulator, or unchanged against AWS
 * (`npm run conformance -- --aws`, see support/quicksight-target.ts for what it needs).
 */

let qs: QuickSightTarget;
/** Registered, with the viewer permission on the dashboard. */
let viewer: string;
/** Registered, without any permission on the dashboard. */
let stranger: string;

beforeAll(async () => {
  qs = await startQuickSightTarget();
  viewer = await qs.registerUser();
  stranger = await qs.registerUser();
  await qs.grantViewer(viewer);
  // The first start may synthesize the app for the functions' role policies (support/front-door.ts).
}, 300_000);
afterAll(async () => {
  await qs?.close();
});

const THREE_DOMAINS = ['https://portal.example.com', 'https://*.example.org', 'http://localhost:5173'];

const embed = (overrides: { userName?: string; dashboardId?: string; domains?: string[]; minutes?: number } = {}) =>
  qs.client.send(
    new GenerateEmbedUrlForRegisteredUserCommand({
      AwsAccountId: qs.accountId,
      UserArn: qs.userArn(overrides.userName ?? viewer),
      SessionLifetimeInMinutes: overrides.minutes ?? 60,
      AllowedDomains: overrides.domains ?? ['https://portal.example.com'],
      ExperienceConfiguration: { Dashboard: { InitialDashboardId: overrides.dashboardId ?? qs.dashboardId } },
    }),
  );

const userRequest = (userName: string) => ({ AwsAccountId: qs.accountId, Namespace: NAMESPACE, UserName: userName });

// https://docs.aws.amazon.com/quicksight/latest/APIReference/API_GenerateEmbedUrlForRegisteredUser.html
// AllowedDomains rules: https://docs.aws.amazon.com/quicksight/latest/user/embedding-run-time.html
describe('GenerateEmbedUrlForRegisteredUser', () => {
  it('GenerateEmbedUrlForRegisteredUser: issues an embed URL for up to three AllowedDomains, https or http://localhost', async () => {
    const result = await embed({ domains: THREE_DOMAINS });
    expect(result.Status).toBe(200);
    expect(() => new URL(result.EmbedUrl ?? '')).not.toThrow();
  });

  it('GenerateEmbedUrlForRegisteredUser: refuses more than three AllowedDomains with InvalidParameterValueException', async () => {
    expect(await sdkError(embed({ domains: [...THREE_DOMAINS, 'https://fourth.example.com'] }))).toMatchObject({
      name: 'InvalidParameterValueException',
      status: 400,
    });
  });

  it.each([
    ['an IP address over http (http://127.0.0.1)', 'http://127.0.0.1:5173'],
    ['an IP address over https', 'https://203.0.113.10'],
    ['http for a domain other than localhost', 'http://portal.example.com'],
  ])(
    'GenerateEmbedUrlForRegisteredUser: refuses %s in AllowedDomains with InvalidParameterValueException',
    async (_case, domain) => {
      expect(await sdkError(embed({ domains: ['https://portal.example.com', domain] }))).toMatchObject({
        name: 'InvalidParameterValueException',
        status: 400,
      });
    },
  );

  // API_RegisteredUserDashboardFeatureConfigurations.html, API_StatePersistenceConfigurations.html,
  // API_BookmarksConfigurations.html
  it('GenerateEmbedUrlForRegisteredUser: accepts Dashboard.FeatureConfigurations with StatePersistence and Bookmarks enabled', async () => {
    const result = await qs.client.send(
      new GenerateEmbedUrlForRegisteredUserCommand({
        AwsAccountId: qs.accountId,
        UserArn: qs.userArn(viewer),
        SessionLifetimeInMinutes: 60,
        AllowedDomains: ['https://portal.example.com'],
        ExperienceConfiguration: {
          Dashboard: {
            InitialDashboardId: qs.dashboardId,
            FeatureConfigurations: { StatePersistence: { Enabled: true }, Bookmarks: { Enabled: true } },
          },
        },
      }),
    );
    expect(result.Status).toBe(200);
    expect(() => new URL(result.EmbedUrl ?? '')).not.toThrow();
  });

  it('GenerateEmbedUrlForRegisteredUser: issues an embed URL for a registered user without permission on the dashboard', async () => {
    const result = await embed({ userName: stranger });
    expect(result.Status).toBe(200);
    expect(() => new URL(result.EmbedUrl ?? '')).not.toThrow();
  });

  it('GenerateEmbedUrlForRegisteredUser: answers QuickSightUserNotFoundException for a user that is not registered', async () => {
    expect(await sdkError(embed({ userName: qs.unregisteredUserName() }))).toMatchObject({
      name: 'QuickSightUserNotFoundException',
      status: 404,
    });
  });

  it('GenerateEmbedUrlForRegisteredUser: answers ResourceNotFoundException for a dashboard that does not exist', async () => {
    expect(await sdkError(embed({ dashboardId: `missing-${qs.dashboardId}-dashboard` }))).toMatchObject({
      name: 'ResourceNotFoundException',
      status: 404,
    });
  });

  it.each([14, 601])(
    'GenerateEmbedUrlForRegisteredUser: answers SessionLifetimeInMinutesInvalidException for a session lifetime of %i minutes (15-600 allowed)',
    async (minutes) => {
      expect(await sdkError(embed({ minutes }))).toMatchObject({
        name: 'SessionLifetimeInMinutesInvalidException',
        status: 400,
      });
    },
  );
});

// https://docs.aws.amazon.com/quicksight/latest/APIReference/API_RegisterUser.html
// https://docs.aws.amazon.com/quicksight/latest/APIReference/API_DescribeUser.html
// https://docs.aws.amazon.com/quicksight/latest/APIReference/API_ListUsers.html
// https://docs.aws.amazon.com/quicksight/latest/APIReference/API_DeleteUser.html
describe('user management', () => {
  it('RegisterUser: answers ResourceExistsException for a user name the namespace already has', async () => {
    const again = qs.identityClient.send(
      new RegisterUserCommand({
        ...userRequest(viewer),
        IdentityType: 'QUICKSIGHT',
        Email: viewer,
        UserRole: 'READER',
      }),
    );
    expect(await sdkError(again)).toMatchObject({ name: 'ResourceExistsException', status: 409 });
  });

  it('DescribeUser: describes a registered QUICKSIGHT user by user name', async () => {
    const { User: user } = await qs.identityClient.send(new DescribeUserCommand(userRequest(viewer)));
    expect(user).toMatchObject({
      UserName: viewer,
      Email: viewer,
      Role: 'READER',
      IdentityType: 'QUICKSIGHT',
      Arn: qs.userArn(viewer),
    });
  });

  it('DescribeUser: answers ResourceNotFoundException for a user that is not registered', async () => {
    expect(
      await sdkError(qs.identityClient.send(new DescribeUserCommand(userRequest(qs.unregisteredUserName())))),
    ).toMatchObject({
      name: 'ResourceNotFoundException',
      status: 404,
    });
  });

  it('ListUsers: lists the registered users of the namespace page by page', async () => {
    const users: User[] = [];
    let token: string | undefined;
    do {
      const page = await qs.identityClient.send(
        new ListUsersCommand({ AwsAccountId: qs.accountId, Namespace: NAMESPACE, MaxResults: 100, NextToken: token }),
      );
      users.push(...(page.UserList ?? []));
      token = page.NextToken;
    } while (token);
    expect(users.map((u) => u.UserName)).toEqual(expect.arrayContaining([viewer, stranger]));
  });

  it('DeleteUser: answers ResourceNotFoundException for a user that is not registered', async () => {
    expect(
      await sdkError(qs.identityClient.send(new DeleteUserCommand(userRequest(qs.unregisteredUserName())))),
    ).toMatchObject({
      name: 'ResourceNotFoundException',
      status: 404,
    });
  });
});

// https://docs.aws.amazon.com/quicksight/latest/APIReference/API_UpdateDashboardPermissions.html
// https://docs.aws.amazon.com/quicksight/latest/APIReference/API_DescribeDashboardPermissions.html
describe('dashboard permissions', () => {
  const viewerEntry = async (userName: string) => {
    const result = await qs.client.send(
      new DescribeDashboardPermissionsCommand({ AwsAccountId: qs.accountId, DashboardId: qs.dashboardId }),
    );
    const entry = (result.Permissions ?? []).find((p) => p.Principal === qs.userArn(userName));
    return entry && [...(entry.Actions ?? [])].sort();
  };

  it('DescribeDashboardPermissions: lists a user granted with UpdateDashboardPermissions with exactly the granted actions', async () => {
    expect(await viewerEntry(viewer)).toEqual([...VIEWER_ACTIONS].sort());
    expect(await viewerEntry(stranger)).toBeUndefined();
  });

  it('UpdateDashboardPermissions: RevokePermissions removes the viewer actions of a user', async () => {
    const revoked = await qs.registerUser();
    await qs.grantViewer(revoked);
    await qs.client.send(
      new UpdateDashboardPermissionsCommand({
        AwsAccountId: qs.accountId,
        DashboardId: qs.dashboardId,
        RevokePermissions: [{ Principal: qs.userArn(revoked), Actions: VIEWER_ACTIONS }],
      }),
    );
    expect(await viewerEntry(revoked)).toBeUndefined();
  });

  it('UpdateDashboardPermissions: answers ResourceNotFoundException for a dashboard that does not exist', async () => {
    const update = qs.client.send(
      new UpdateDashboardPermissionsCommand({
        AwsAccountId: qs.accountId,
        DashboardId: `missing-${qs.dashboardId}-dashboard`,
        GrantPermissions: [{ Principal: qs.userArn(viewer), Actions: VIEWER_ACTIONS }],
      }),
    );
    expect(await sdkError(update)).toMatchObject({ name: 'ResourceNotFoundException', status: 404 });
  });
});

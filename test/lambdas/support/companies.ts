import { AdminGetUserCommand, UserNotFoundException } from '@aws-sdk/client-cognito-identity-provider';
import {
  CreateDataSetCommand,
  CreateDataSourceCommand,
  CreateGroupCommand,
  CreateGroupMembershipCommand,
  CreateIngestionCommand,
  DeleteDataSourceCommand,
  DeleteGroupCommand,
  DeleteGroupMembershipCommand,
  DescribeDashboardCommand,
  DescribeDataSetCommand,
  DescribeDataSetPermissionsCommand,
  DescribeDataSourceCommand,
  DescribeDataSourcePermissionsCommand,
  DescribeUserCommand,
  ListGroupMembershipsCommand,
  ListGroupsCommand,
  ListIngestionsCommand,
  ListUserGroupsCommand,
  ListUsersCommand,
  ResourceExistsException,
  ResourceNotFoundException,
  UpdateDataSetPermissionsCommand,
  UpdateDataSourcePermissionsCommand,
  type DataSet,
  type DataSource,
  type ResourcePermission,
} from '@aws-sdk/client-quicksight';
import { GetObjectCommand, NoSuchKey, PutObjectCommand } from '@aws-sdk/client-s3';
import { ACCOUNT_ID, COMPANY_SETTINGS, quicksightUser, type Harness } from './harness.ts';

/**
 * Companies in handler tests: records written straight into the State table, and a small
 * in-memory QuickSight (groups, members, the rules data source and dataset, ingestions,
 * dashboards with their datasets) and S3 bucket behind the SDK mocks, answering as the API
 * references describe (ResourceExistsException, ResourceNotFoundException, NoSuchKey).
 */

const REGION_ARN = `arn:aws:quicksight:us-east-2:${ACCOUNT_ID}`;
export const RULES_DATA_SET_ARN = `${REGION_ARN}:dataset/${COMPANY_SETTINGS.dataSetId}`;
export const groupNameOf = (companyId: string) => `${COMPANY_SETTINGS.groupPrefix}${companyId}`;

export const seedCompany = async (h: Harness, id: string, name: string, kind = 'manufacturer') => {
  const at = '2026-01-01T00:00:00.000Z';
  await h.tables.put('STATE_TABLE', {
    pk: 'COMPANY',
    sk: id,
    name,
    kind,
    createdAt: at,
    updatedAt: at,
    createdBy: 'admin@example.com',
  });
  await h.tables.put('STATE_TABLE', { pk: `COMPANY_NAME#${name.toLowerCase()}`, sk: 'CLAIM', companyId: id });
};

export const seedMembership = async (h: Harness, email: string, companyIds: string[], owner = false) => {
  await h.tables.put('STATE_TABLE', {
    pk: 'MEMBERSHIP',
    sk: email,
    companyIds,
    owner,
    updatedAt: '2026-01-01T00:00:00.000Z',
  });
};

export const scopedDataSet = (id: string, rulesArn = RULES_DATA_SET_ARN): DataSet => ({
  DataSetId: id,
  Arn: `${REGION_ARN}:dataset/${id}`,
  Name: id,
  RowLevelPermissionDataSet: {
    Arn: rulesArn,
    PermissionPolicy: 'GRANT_ACCESS',
    FormatVersion: 'VERSION_2',
    Status: 'ENABLED',
  },
});

export const unscopedDataSet = (id: string): DataSet => ({
  DataSetId: id,
  Arn: `${REGION_ARN}:dataset/${id}`,
  Name: id,
});

export interface FakeQuickSight {
  /** Group name → member names. */
  readonly groups: Map<string, Set<string>>;
  /** Registered QuickSight user names. */
  readonly users: Set<string>;
  /** S3 key → body. */
  readonly objects: Map<string, string>;
  readonly dataSets: Map<string, DataSet>;
  /** Data source id → what DescribeDataSource answers (Status, ErrorInfo). */
  readonly dataSources: Map<string, DataSource>;
  /**
   * Statuses DescribeDataSource answers for a data source just created, one per call, the last
   * one kept (QuickSight creates data sources asynchronously). @default ['CREATION_SUCCESSFUL']
   */
  creationStatuses: DataSource[];
  /** Resource permissions by `datasource/<id>` or `dataset/<id>`. */
  readonly permissions: Map<string, ResourcePermission[]>;
  readonly ingestions: { id: string; status: string; created: Date }[];
  /** Dashboard id → ids of the datasets behind it. */
  readonly dashboards: Map<string, string[]>;
  /** Mutating QuickSight and S3 calls, in order, as `Operation target`. */
  readonly changes: string[];
}

/**
 * One page of a list, as QuickSight pages them: at most `MaxResults` (100 at most), an opaque NextToken while more
 * remain.
 */
const paged = <T>(items: readonly T[], input: { MaxResults?: number; NextToken?: string }) => {
  const size = Math.min(input.MaxResults ?? 100, 100);
  const start = input.NextToken === undefined ? 0 : Number(input.NextToken);
  return {
    items: items.slice(start, start + size),
    NextToken: start + size < items.length ? String(start + size) : undefined,
  };
};

const notFound = (what: string) => new ResourceNotFoundException({ message: `${what} not found`, $metadata: {} });

/** Answers the company operations of QuickSight and S3 from memory. */
export const fakeQuickSight = (h: Harness, users: readonly string[] = []): FakeQuickSight => {
  const world: FakeQuickSight = {
    groups: new Map(),
    users: new Set(users),
    objects: new Map(),
    dataSets: new Map(),
    dataSources: new Map(),
    creationStatuses: [{ Status: 'CREATION_SUCCESSFUL' }],
    permissions: new Map(),
    ingestions: [],
    dashboards: new Map(),
    changes: [],
  };
  const group = (name: string) => {
    const found = world.groups.get(name);
    if (!found) throw notFound(`Group ${name}`);
    return found;
  };
  h.quicksight.on(DescribeUserCommand).callsFake((input: { UserName: string }) => {
    if (!world.users.has(input.UserName)) throw notFound(`User ${input.UserName}`);
    return { User: quicksightUser(input.UserName) };
  });
  h.quicksight.on(ListUsersCommand).callsFake((input: { MaxResults?: number; NextToken?: string }) => {
    const { items, NextToken } = paged([...world.users], input);
    return { UserList: items.map((name) => quicksightUser(name)), NextToken };
  });
  h.quicksight.on(CreateGroupCommand).callsFake((input: { GroupName: string }) => {
    if (world.groups.has(input.GroupName))
      throw new ResourceExistsException({ message: 'Group exists', $metadata: {} });
    world.groups.set(input.GroupName, new Set());
    world.changes.push(`CreateGroup ${input.GroupName}`);
    return { Group: { GroupName: input.GroupName } };
  });
  h.quicksight.on(DeleteGroupCommand).callsFake((input: { GroupName: string }) => {
    group(input.GroupName);
    world.groups.delete(input.GroupName);
    world.changes.push(`DeleteGroup ${input.GroupName}`);
    return {};
  });
  h.quicksight.on(ListGroupsCommand).callsFake((input: { MaxResults?: number; NextToken?: string }) => {
    const { items, NextToken } = paged([...world.groups.keys()], input);
    return { GroupList: items.map((GroupName) => ({ GroupName })), NextToken };
  });
  h.quicksight.on(CreateGroupMembershipCommand).callsFake((input: { GroupName: string; MemberName: string }) => {
    const members = group(input.GroupName);
    if (!world.users.has(input.MemberName)) throw notFound(`User ${input.MemberName}`);
    members.add(input.MemberName);
    world.changes.push(`CreateGroupMembership ${input.GroupName} ${input.MemberName}`);
    return { GroupMember: { MemberName: input.MemberName } };
  });
  h.quicksight.on(DeleteGroupMembershipCommand).callsFake((input: { GroupName: string; MemberName: string }) => {
    const members = group(input.GroupName);
    if (!members.delete(input.MemberName)) throw notFound(`Member ${input.MemberName}`);
    world.changes.push(`DeleteGroupMembership ${input.GroupName} ${input.MemberName}`);
    return {};
  });
  h.quicksight
    .on(ListGroupMembershipsCommand)
    .callsFake((input: { GroupName: string; MaxResults?: number; NextToken?: string }) => {
      const { items, NextToken } = paged([...group(input.GroupName)], input);
      return { GroupMemberList: items.map((MemberName) => ({ MemberName })), NextToken };
    });
  h.quicksight
    .on(ListUserGroupsCommand)
    .callsFake((input: { UserName: string; MaxResults?: number; NextToken?: string }) => {
      if (!world.users.has(input.UserName)) throw notFound(`User ${input.UserName}`);
      const names = [...world.groups].flatMap(([name, members]) => (members.has(input.UserName) ? [name] : []));
      const { items, NextToken } = paged(names, input);
      return { GroupList: items.map((GroupName) => ({ GroupName })), NextToken };
    });
  /** Statuses still to answer for each data source being created. */
  const creating = new Map<string, DataSource[]>();
  h.quicksight.on(DescribeDataSourceCommand).callsFake((input: { DataSourceId: string }) => {
    const source = world.dataSources.get(input.DataSourceId);
    if (!source) throw notFound('Data source');
    const pending = creating.get(input.DataSourceId);
    if (pending) {
      Object.assign(source, pending.shift());
      if (pending.length === 0) creating.delete(input.DataSourceId);
    }
    return { DataSource: { DataSourceId: input.DataSourceId, ...source } };
  });
  h.quicksight
    .on(CreateDataSourceCommand)
    .callsFake((input: { DataSourceId: string; Permissions?: ResourcePermission[] }) => {
      if (world.dataSources.has(input.DataSourceId))
        throw new ResourceExistsException({ message: 'exists', $metadata: {} });
      world.dataSources.set(input.DataSourceId, { Status: 'CREATION_IN_PROGRESS' });
      creating.set(input.DataSourceId, [...world.creationStatuses]);
      world.permissions.set(`datasource/${input.DataSourceId}`, input.Permissions ?? []);
      world.changes.push(`CreateDataSource ${input.DataSourceId}`);
      return { CreationStatus: 'CREATION_IN_PROGRESS' };
    });
  h.quicksight.on(DeleteDataSourceCommand).callsFake((input: { DataSourceId: string }) => {
    if (!world.dataSources.delete(input.DataSourceId)) throw notFound('Data source');
    world.changes.push(`DeleteDataSource ${input.DataSourceId}`);
    return {};
  });
  const describePermissions = (id: string, exists: boolean) => {
    if (!exists) throw notFound(id);
    return { Permissions: world.permissions.get(id) ?? [] };
  };
  const grant = (id: string, exists: boolean, grants: ResourcePermission[] = [], operation: string) => {
    if (!exists) throw notFound(id);
    world.permissions.set(id, [...(world.permissions.get(id) ?? []), ...grants]);
    world.changes.push(`${operation} ${id}`);
    return {};
  };
  h.quicksight
    .on(DescribeDataSourcePermissionsCommand)
    .callsFake((input: { DataSourceId: string }) =>
      describePermissions(`datasource/${input.DataSourceId}`, world.dataSources.has(input.DataSourceId)),
    );
  h.quicksight
    .on(UpdateDataSourcePermissionsCommand)
    .callsFake((input: { DataSourceId: string; GrantPermissions?: ResourcePermission[] }) =>
      grant(
        `datasource/${input.DataSourceId}`,
        world.dataSources.has(input.DataSourceId),
        input.GrantPermissions,
        'UpdateDataSourcePermissions',
      ),
    );
  h.quicksight
    .on(DescribeDataSetPermissionsCommand)
    .callsFake((input: { DataSetId: string }) =>
      describePermissions(`dataset/${input.DataSetId}`, world.dataSets.has(input.DataSetId)),
    );
  h.quicksight
    .on(UpdateDataSetPermissionsCommand)
    .callsFake((input: { DataSetId: string; GrantPermissions?: ResourcePermission[] }) =>
      grant(
        `dataset/${input.DataSetId}`,
        world.dataSets.has(input.DataSetId),
        input.GrantPermissions,
        'UpdateDataSetPermissions',
      ),
    );
  h.quicksight.on(DescribeDataSetCommand).callsFake((input: { DataSetId: string }) => {
    const dataSet = world.dataSets.get(input.DataSetId);
    if (!dataSet) throw notFound('Data set');
    return { DataSet: dataSet };
  });
  h.quicksight
    .on(CreateDataSetCommand)
    .callsFake((input: { DataSetId: string; Name: string; Permissions?: ResourcePermission[] }) => {
      if (world.dataSets.has(input.DataSetId)) throw new ResourceExistsException({ message: 'exists', $metadata: {} });
      world.permissions.set(`dataset/${input.DataSetId}`, input.Permissions ?? []);
      world.dataSets.set(input.DataSetId, {
        DataSetId: input.DataSetId,
        Name: input.Name,
        Arn: `${REGION_ARN}:dataset/${input.DataSetId}`,
      });
      world.changes.push(`CreateDataSet ${input.DataSetId}`);
      return {};
    });
  h.quicksight.on(CreateIngestionCommand).callsFake((input: { DataSetId: string; IngestionId: string }) => {
    if (!world.dataSets.has(input.DataSetId)) throw notFound('Data set');
    world.ingestions.push({
      id: input.IngestionId,
      status: 'COMPLETED',
      created: new Date(Date.now() + world.ingestions.length),
    });
    world.changes.push(`CreateIngestion ${input.DataSetId}`);
    return { IngestionStatus: 'INITIALIZED' };
  });
  h.quicksight.on(ListIngestionsCommand).callsFake((input: { DataSetId: string }) => {
    if (!world.dataSets.has(input.DataSetId)) throw notFound('Data set');
    return {
      Ingestions: world.ingestions.map((ingestion) => ({
        IngestionId: ingestion.id,
        IngestionStatus: ingestion.status,
        CreatedTime: ingestion.created,
      })),
    };
  });
  h.quicksight.on(DescribeDashboardCommand).callsFake((input: { DashboardId: string }) => {
    const dataSets = world.dashboards.get(input.DashboardId);
    if (!dataSets) throw notFound('Dashboard');
    return {
      Dashboard: {
        DashboardId: input.DashboardId,
        Version: { DataSetArns: dataSets.map((id) => `${REGION_ARN}:dataset/${id}`) },
      },
    };
  });
  h.s3.on(PutObjectCommand).callsFake((input: { Key: string; Body: string }) => {
    world.objects.set(input.Key, String(input.Body));
    world.changes.push(`PutObject ${input.Key}`);
    return {};
  });
  h.s3.on(GetObjectCommand).callsFake((input: { Key: string }) => {
    const body = world.objects.get(input.Key);
    if (body === undefined) throw new NoSuchKey({ message: 'The specified key does not exist.', $metadata: {} });
    return { Body: { transformToString: async () => body } };
  });
  return world;
};

/** The rules file's rows after its header `UserARN,GroupARN,company`. */
export const rulesRows = (world: FakeQuickSight): string[] =>
  (world.objects.get('company-rules/rules.csv') ?? '').trim().split('\n').slice(1);

export const groupArnOf = (companyId: string) =>
  `arn:aws:quicksight:us-east-2:${ACCOUNT_ID}:group/default/${groupNameOf(companyId)}`;

/** Cognito's AdminGetUser finds these accounts (confirmed) and no other, as the management function looks a user up. */
export const acceptAccounts = (h: Harness, emails: readonly string[]): void => {
  h.cognito.on(AdminGetUserCommand).callsFake((input: { Username: string }) => {
    if (!emails.includes(input.Username))
      throw new UserNotFoundException({ message: 'User does not exist.', $metadata: {} });
    return { Username: input.Username, UserStatus: 'CONFIRMED' };
  });
};

/** Three companies of different kinds, as company tests start from them. */
export const SAMPLE_COMPANIES = [
  { id: 'c-north', name: 'Northwind Manufacturing', kind: 'manufacturer' },
  { id: 'c-contoso', name: 'Contoso Distribution', kind: 'distributor' },
  { id: 'c-fabrikam', name: 'Fabrikam Industries', kind: 'manufacturer' },
] as const;

/** The sample companies in the State table, each with its (empty) QuickSight group. */
export const seedSampleCompanies = async (h: Harness, world: FakeQuickSight): Promise<void> => {
  for (const company of SAMPLE_COMPANIES) {
    await seedCompany(h, company.id, company.name, company.kind);
    world.groups.set(groupNameOf(company.id), new Set());
  }
};

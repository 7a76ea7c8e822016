import { randomBytes } from 'node:crypto';
import { BatchGetCommand, DeleteCommand, GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import {
  type AccessCheck,
  type CompanyKind,
  COMPANY_MESSAGES,
  accessCheckSchema,
  companiesLabel,
} from '#contracts/companies.ts';
import { stateTable } from '#contracts/tables.ts';
import { dynamo } from '../aws/dynamo.ts';
import { ConflictError, NotFoundError } from '../errors.ts';
import { queryStatePartition } from './state-partition.ts';
import { isConditionFailure, nowIso, tableName } from './tables.ts';

/**
 * Companies and who belongs to them, in the State table:
 *
 * | pk | sk | item |
 * | --- | --- | --- |
 * | COMPANY | <company id> | name, kind, createdAt, updatedAt, createdBy |
 * | COMPANY_NAME#<lowercased name> | CLAIM | companyId: keeps names unique without regard to case |
 * | MEMBERSHIP | <email> | companyIds, owner, updatedAt |
 *
 * Companies and memberships each sit in one partition, so the whole list is one paged query
 * (no per-user reads at 10,000 users). A company's id never changes; its QuickSight group is
 * named after the id, so a rename touches neither the group nor its members.
 */

const COMPANY_PK = 'COMPANY';
const MEMBERSHIP_PK = 'MEMBERSHIP';

export interface CompanyItem {
  readonly id: string;
  readonly name: string;
  readonly kind: CompanyKind;
  readonly createdAt: string;
  readonly updatedAt: string;
  readonly createdBy?: string;
}

export interface MembershipItem {
  readonly email: string;
  readonly companyIds: readonly string[];
  readonly owner: boolean;
  readonly updatedAt: string;
}

const nameClaimKey = (name: string) => ({ pk: `COMPANY_NAME#${name.trim().toLowerCase()}`, sk: 'CLAIM' });

const toCompany = (item: Record<string, unknown>): CompanyItem => ({
  id: String(item.sk),
  name: String(item.name),
  kind: item.kind as CompanyKind,
  createdAt: String(item.createdAt),
  updatedAt: String(item.updatedAt),
  ...(typeof item.createdBy === 'string' ? { createdBy: item.createdBy } : {}),
});

const toMembership = (item: Record<string, unknown>): MembershipItem => ({
  email: String(item.sk),
  companyIds: Array.isArray(item.companyIds) ? item.companyIds.map(String) : [],
  owner: item.owner === true,
  updatedAt: String(item.updatedAt ?? ''),
});

/** Every company, by name. */
export const listCompanies = async (): Promise<CompanyItem[]> =>
  (await queryStatePartition(COMPANY_PK)).map(toCompany).sort((a, b) => a.name.localeCompare(b.name));

const getCompany = async (id: string): Promise<CompanyItem | undefined> => {
  const result = await dynamo.send(
    new GetCommand({ TableName: tableName(stateTable), Key: { pk: COMPANY_PK, sk: id }, ConsistentRead: true }),
  );
  return result.Item ? toCompany(result.Item) : undefined;
};

export const requireCompany = async (id: string): Promise<CompanyItem> => {
  const company = await getCompany(id);
  if (company === undefined)
    throw new NotFoundError(COMPANY_MESSAGES.notFound, { suggestion: 'Refresh the company list and try again.' });
  return company;
};

/** A new company id: lowercase letters and digits, safe in a QuickSight group name. */
export const newCompanyId = (): string => randomBytes(6).toString('hex');

/**
 * Claims a company name for `companyId` (idempotent for the same company). A claim left by a
 * request that died before writing its company (no company holds that name) is taken over.
 */
export const claimCompanyName = async (name: string, companyId: string): Promise<void> => {
  const put = (condition: string, values: Record<string, unknown>) =>
    dynamo.send(
      new PutCommand({
        TableName: tableName(stateTable),
        Item: { ...nameClaimKey(name), companyId },
        ConditionExpression: condition,
        ExpressionAttributeValues: values,
      }),
    );
  try {
    await put('attribute_not_exists(pk) OR companyId = :id', { ':id': companyId });
    return;
  } catch (error) {
    if (!isConditionFailure(error)) throw error;
  }
  const claim = await dynamo.send(
    new GetCommand({ TableName: tableName(stateTable), Key: nameClaimKey(name), ConsistentRead: true }),
  );
  const holderId = String(claim.Item?.companyId ?? '');
  const holder = holderId === '' ? undefined : await getCompany(holderId);
  if (holder !== undefined && holder.name.toLowerCase() === name.trim().toLowerCase()) {
    throw new ConflictError(COMPANY_MESSAGES.nameTaken(holder.name), { fields: ['name'] });
  }
  try {
    await put('companyId = :stale', { ':stale': holderId });
  } catch (error) {
    if (isConditionFailure(error)) throw new ConflictError(COMPANY_MESSAGES.nameTaken(name), { fields: ['name'] });
    throw error;
  }
};

/** Gives a name back, only if `companyId` holds it. */
export const releaseCompanyName = async (name: string, companyId: string): Promise<void> => {
  try {
    await dynamo.send(
      new DeleteCommand({
        TableName: tableName(stateTable),
        Key: nameClaimKey(name),
        ConditionExpression: 'companyId = :id',
        ExpressionAttributeValues: { ':id': companyId },
      }),
    );
  } catch (error) {
    if (!isConditionFailure(error)) throw error;
  }
};

export const putCompany = async (company: CompanyItem): Promise<void> => {
  const { id, ...fields } = company;
  await dynamo.send(new PutCommand({ TableName: tableName(stateTable), Item: { pk: COMPANY_PK, sk: id, ...fields } }));
};

export const deleteCompanyRecord = async (id: string): Promise<void> => {
  await dynamo.send(new DeleteCommand({ TableName: tableName(stateTable), Key: { pk: COMPANY_PK, sk: id } }));
};

/** Every user's companies, by email. */
export const listMemberships = async (): Promise<Map<string, MembershipItem>> =>
  new Map(
    (await queryStatePartition(MEMBERSHIP_PK)).map(toMembership).map((membership) => [membership.email, membership]),
  );

/** BatchGetItem's limit of keys per call, and the attempts at keys DynamoDB leaves unprocessed. */
const BATCH_GET_KEYS = 100;
const BATCH_GET_ATTEMPTS = 5;

/**
 * The memberships of `emails` (of those who have one), by email: one BatchGetItem per 100
 * emails, whatever the number of users in the portal; keys DynamoDB leaves unprocessed are
 * asked again after a growing pause.
 */
export const membershipsOf = async (emails: readonly string[]): Promise<Map<string, MembershipItem>> => {
  const table = tableName(stateTable);
  const found = new Map<string, MembershipItem>();
  const chunks: string[][] = [];
  for (let start = 0; start < emails.length; start += BATCH_GET_KEYS)
    chunks.push(emails.slice(start, start + BATCH_GET_KEYS));
  await Promise.all(
    chunks.map(async (chunk) => {
      let keys: Record<string, unknown>[] = chunk.map((email) => ({ pk: MEMBERSHIP_PK, sk: email.toLowerCase() }));
      for (let attempt = 1; keys.length > 0; attempt += 1) {
        if (attempt > BATCH_GET_ATTEMPTS) throw new Error(`DynamoDB left ${keys.length} membership reads unprocessed`);
        const answer = await dynamo.send(
          new BatchGetCommand({ RequestItems: { [table]: { Keys: keys, ConsistentRead: true } } }),
        );
        for (const item of answer.Responses?.[table] ?? []) {
          const membership = toMembership(item);
          found.set(membership.email, membership);
        }
        keys = answer.UnprocessedKeys?.[table]?.Keys ?? [];
        if (keys.length > 0) await new Promise((resolve) => setTimeout(resolve, 50 * 2 ** attempt));
      }
    }),
  );
  return found;
};

export const getMembership = async (email: string): Promise<MembershipItem | undefined> => {
  const result = await dynamo.send(
    new GetCommand({
      TableName: tableName(stateTable),
      Key: { pk: MEMBERSHIP_PK, sk: email.toLowerCase() },
      ConsistentRead: true,
    }),
  );
  return result.Item ? toMembership(result.Item) : undefined;
};

export const putMembership = async (
  email: string,
  companyIds: readonly string[],
  owner: boolean,
): Promise<MembershipItem> => {
  const membership: MembershipItem = {
    email: email.toLowerCase(),
    companyIds: [...companyIds],
    owner,
    updatedAt: nowIso(),
  };
  await dynamo.send(
    new PutCommand({
      TableName: tableName(stateTable),
      Item: {
        pk: MEMBERSHIP_PK,
        sk: membership.email,
        companyIds: membership.companyIds,
        owner,
        updatedAt: membership.updatedAt,
      },
    }),
  );
  return membership;
};

export const deleteMembership = async (email: string): Promise<void> => {
  await dynamo.send(
    new DeleteCommand({ TableName: tableName(stateTable), Key: { pk: MEMBERSHIP_PK, sk: email.toLowerCase() } }),
  );
};

/** The names of a membership's companies (ids of deleted companies are skipped). */
/** The names of a membership's companies, sorted (the order every listing shows). */
export const companyNamesOf = (
  membership: MembershipItem | undefined,
  companies: ReadonlyMap<string, CompanyItem>,
): string[] =>
  (membership?.companyIds ?? [])
    .flatMap((id) => {
      const company = companies.get(id);
      return company ? [company.name] : [];
    })
    .sort((a, b) => a.localeCompare(b));

/** Companies by id. */
export const companiesById = (companies: readonly CompanyItem[]): Map<string, CompanyItem> =>
  new Map(companies.map((company) => [company.id, company]));

const LAST_CHECK_KEY = { pk: 'CHECK', sk: 'COMPANY_ACCESS' };

/** Keeps the latest company-access check (the Companies tab shows it). */
export const saveLastCheck = async (check: AccessCheck): Promise<void> => {
  await dynamo.send(
    new PutCommand({ TableName: tableName(stateTable), Item: { ...LAST_CHECK_KEY, check: JSON.stringify(check) } }),
  );
};

export const readLastCheck = async (): Promise<AccessCheck | null> => {
  const result = await dynamo.send(
    new GetCommand({ TableName: tableName(stateTable), Key: LAST_CHECK_KEY, ConsistentRead: true }),
  );
  if (typeof result.Item?.check !== 'string') return null;
  const parsed = accessCheckSchema.safeParse(JSON.parse(result.Item.check));
  return parsed.success ? parsed.data : null;
};

/** The names of one user's companies: their membership and each company record (no list query). */
export const companyNamesOfUser = async (email: string): Promise<string[]> => {
  const membership = await getMembership(email);
  const companies = await Promise.all((membership?.companyIds ?? []).map(getCompany));
  return companies.flatMap((company) => (company ? [company.name] : [])).sort((a, b) => a.localeCompare(b));
};

/**
 * How a user's companies are shown beside their views and assignments (GraphQL's companyName,
 * the admin portal's panels): their names, read from the company records now, so a rename
 * shows everywhere at once; null for a user in no company.
 */
export const companyLabelOfUser = async (email: string): Promise<string | null> =>
  companiesLabel(await companyNamesOfUser(email)) || null;

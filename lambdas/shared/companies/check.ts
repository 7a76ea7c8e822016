import {
  COMPANY_COLUMN,
  COMPANY_TAG_DELIMITER,
  COMPANY_TAG_KEY,
  type AccessCheck,
  type AccessDifference,
} from '#contracts/companies.ts';
import { quickSightCallCount } from '../aws/quicksight.ts';
import { mapWithLimit } from '../concurrency.ts';
import { listDashboards } from '../data/catalogue.ts';
import { type CompanyItem, type MembershipItem, listCompanies, listMemberships } from '../data/companies.ts';
import { viewsOfDashboard } from '../data/views.ts';
import { listQuickSightUsers } from '../quicksight.ts';
import {
  addMember,
  companyGroupPrefix,
  createGroup,
  deleteGroup,
  groupArn,
  groupNameOf,
  listCompanyGroups,
  listMembers,
  removeMember,
} from './groups.ts';
import { NAME_SPLITS_NOT_MENDED, nameDifferences } from './name-check.ts';
import { dataSourceStatusText, isDataSourceFailed } from '#contracts/company-rules.ts';
import { publishRules, readRulesFile, rulesCsv, rulesLoadState } from './rules.ts';
import { describeRulesDataSource, rulesDataSourceId } from './rules-dataset.ts';
import { dashboardScope } from './scope.ts';

/**
 * Compares the portal's companies and memberships with QuickSight: one group per company,
 * each holding exactly the registered users of that company, the rules file holding one
 * rule per company and loaded into SPICE, and every dashboard used by several companies
 * company-scoped (or confirmed as shared data). QuickSight is read with list calls only
 * (ListUsers, ListGroups, ListGroupMemberships per group; per dashboard in use by several
 * companies, DescribeDashboard and DescribeDataSet), never one call per user.
 *
 * With `fix`, each difference the portal can mend is mended, in an order that never adds a
 * user to a group before removing unexpected ones; a dashboard's datasets are QuickSight
 * authors' to change, so that difference is reported only.
 */

export const companyRules = (companies: readonly CompanyItem[]) =>
  companies.map((company) => ({ groupArn: groupArn(groupNameOf(company.id)), company: company.name }));

interface Observed {
  readonly companies: CompanyItem[];
  readonly memberships: Map<string, MembershipItem>;
  readonly registered: Set<string>;
  readonly groups: Set<string>;
  readonly members: Map<string, Set<string>>;
}

const observe = async (): Promise<Observed> => {
  const [companies, memberships, quicksightUsers, groupNames] = await Promise.all([
    listCompanies(),
    listMemberships(),
    listQuickSightUsers(),
    listCompanyGroups(),
  ]);
  const registered = new Set(quicksightUsers.flatMap((user) => (user.UserName ? [user.UserName.toLowerCase()] : [])));
  const groups = new Set(groupNames);
  const members = new Map(
    await mapWithLimit(groupNames, 5, async (name) => [name, new Set(await listMembers(name))] as const),
  );
  return { companies, memberships, registered, groups, members };
};

/** For each company group, the registered users who should be in it. */
const expectedMembers = (observed: Observed): Map<string, Set<string>> => {
  const expected = new Map(observed.companies.map((company) => [groupNameOf(company.id), new Set<string>()]));
  for (const membership of observed.memberships.values()) {
    if (!observed.registered.has(membership.email)) continue;
    for (const id of membership.companyIds) expected.get(groupNameOf(id))?.add(membership.email);
  }
  return expected;
};

const groupDifferences = (observed: Observed): AccessDifference[] => {
  const differences: AccessDifference[] = [];
  const companyOfGroup = new Map(observed.companies.map((company) => [groupNameOf(company.id), company.name]));
  for (const [groupName, wanted] of expectedMembers(observed)) {
    const company = companyOfGroup.get(groupName) ?? null;
    // A missing group has no members (observe lists only the groups there are): every wanted member is missing too.
    if (!observed.groups.has(groupName)) {
      differences.push({
        kind: 'group-missing',
        company,
        subject: null,
        expected: `group ${groupName}`,
        found: 'no group',
      });
    }
    const present = observed.members.get(groupName) ?? new Set<string>();
    for (const email of [...present].sort()) {
      if (!wanted.has(email)) {
        differences.push({
          kind: 'member-unexpected',
          company,
          subject: email,
          expected: `not a member of ${groupName}`,
          found: 'member',
        });
      }
    }
    for (const email of [...wanted].sort()) {
      if (!present.has(email)) {
        differences.push({
          kind: 'member-missing',
          company,
          subject: email,
          expected: `member of ${groupName}`,
          found: 'not a member',
        });
      }
    }
  }
  for (const groupName of [...observed.groups].sort()) {
    if (!companyOfGroup.has(groupName)) {
      differences.push({
        kind: 'group-unexpected',
        company: null,
        subject: groupName,
        expected: 'no group (no company has it)',
        found: `group ${groupName}`,
      });
    }
  }
  return differences;
};

/**
 * The rules file, its load, and QuickSight's data source. The data source is described when the
 * rules do not load, to name why (a data source QuickSight failed to create or update, with its
 * ErrorInfo), and always before a Fix, which creates a failed one again; a check of loaded rules
 * makes no call more than the lists.
 */
const rulesDifferences = async (
  companies: readonly CompanyItem[],
  describeSource: boolean,
): Promise<AccessDifference[]> => {
  const differences: AccessDifference[] = [];
  const expected = rulesCsv(companyRules(companies));
  const found = await readRulesFile();
  if (found !== expected) {
    differences.push({
      kind: 'rules-outdated',
      company: null,
      subject: null,
      expected: `${companies.length} rule(s), one per company`,
      found:
        found === undefined
          ? 'no rules file'
          : `${Math.max(0, found.trim().split('\n').length - 1)} rule(s) that differ`,
    });
  }
  const load = await rulesLoadState();
  const notLoaded = load.state === 'missing' || load.state === 'failed';
  const source = notLoaded || describeSource ? await describeRulesDataSource() : undefined;
  if (source !== undefined && isDataSourceFailed(source)) {
    differences.push({
      kind: 'rules-not-loaded',
      company: null,
      subject: null,
      expected: 'rules data source CREATION_SUCCESSFUL or UPDATE_SUCCESSFUL',
      found: `data source ${rulesDataSourceId()} ${dataSourceStatusText(source)}`,
    });
  }
  if (notLoaded) {
    differences.push({
      kind: 'rules-not-loaded',
      company: null,
      subject: null,
      expected: 'rules dataset loaded into SPICE',
      found: load.state === 'missing' ? 'no rules dataset' : load.detail,
    });
  }
  return differences;
};

const dashboardDifferences = async (observed: Observed): Promise<AccessDifference[]> => {
  const names = new Map(observed.companies.map((company) => [company.id, company.name]));
  const dashboards = (await listDashboards()).filter((dashboard) => dashboard.sharedData !== true);
  const found = await mapWithLimit(dashboards, 5, async (dashboard): Promise<AccessDifference[]> => {
    const holders = new Set<string>();
    for (const view of await viewsOfDashboard(dashboard.dashboardId)) {
      for (const id of observed.memberships.get(view.userEmail)?.companyIds ?? []) holders.add(names.get(id) ?? id);
    }
    if (holders.size < 2) return [];
    const verdict = await dashboardScope(dashboard.dashboardId);
    if (verdict.scope === 'company-scoped') {
      if (verdict.tagRules === undefined) return [];
      return [
        {
          kind: 'dashboard-no-tag-rules',
          company: [...holders].sort().join(', '),
          subject: dashboard.dashboardId,
          expected: `a tag rule on every dataset: tag ${COMPANY_TAG_KEY}, column ${COMPANY_COLUMN}, delimiter "${COMPANY_TAG_DELIMITER}"`,
          found: verdict.tagRules,
        },
      ];
    }
    return [
      {
        kind: 'dashboard-not-scoped',
        company: [...holders].sort().join(', '),
        subject: dashboard.dashboardId,
        expected: 'company-scoped, or confirmed as shared data',
        found: verdict.detail,
      },
    ];
  });
  return found.flat();
};

type Mend = (difference: AccessDifference) => Promise<void>;

const mender = (companies: readonly CompanyItem[]): Mend => {
  let rulesPublished: Promise<unknown> | undefined;
  const groupOfCompany = new Map(companies.map((company) => [company.name, groupNameOf(company.id)]));
  return async (difference) => {
    const groupName = difference.company === null ? undefined : groupOfCompany.get(difference.company);
    switch (difference.kind) {
      case 'group-missing':
        return createGroup(groupName!, difference.company!);
      case 'group-unexpected':
        return deleteGroup(difference.subject!);
      case 'member-missing':
        return addMember(groupName!, difference.subject!);
      case 'member-unexpected':
        return removeMember(groupName!, difference.subject!);
      case 'rules-outdated':
      case 'rules-not-loaded':
        // A failed data source is created again: QuickSight does not retry one by itself.
        rulesPublished ??= publishRules(companyRules(companies), { recreateFailedSource: true });
        await rulesPublished;
        return;
      case 'dashboard-not-scoped':
        throw new Error('Only a QuickSight author can attach the rules to its datasets');
      case 'dashboard-no-tag-rules':
        throw new Error('Only a QuickSight author can add the tag rule to its datasets');
      case 'name-splits':
        throw new Error(NAME_SPLITS_NOT_MENDED);
    }
  };
};

/** Removals first: a fix never holds a user in more groups than either before or after it. */
const MEND_ORDER: Record<AccessDifference['kind'], number> = {
  'member-unexpected': 0,
  'group-unexpected': 1,
  'group-missing': 2,
  'member-missing': 3,
  'rules-outdated': 4,
  'rules-not-loaded': 5,
  'dashboard-not-scoped': 6,
  'dashboard-no-tag-rules': 7,
  'name-splits': 8,
};

export interface CheckOptions {
  readonly fix: boolean;
  readonly checkedBy: string;
  /** Called for each mend, done or failed (the admin action audits each). */
  readonly onMend?: (difference: AccessDifference) => Promise<void>;
}

export const checkCompanyAccess = async (options: CheckOptions): Promise<AccessCheck> => {
  const callsBefore = quickSightCallCount();
  companyGroupPrefix();
  const observed = await observe();
  const differences = [
    ...groupDifferences(observed),
    ...(await rulesDifferences(observed.companies, options.fix)),
    ...(await dashboardDifferences(observed)),
    ...nameDifferences(observed.companies),
  ];
  if (options.fix) {
    const mend = mender(observed.companies);
    const ordered = [...differences].sort((a, b) => MEND_ORDER[a.kind] - MEND_ORDER[b.kind]);
    for (const difference of ordered) {
      let outcome: AccessDifference;
      try {
        await mend(difference);
        outcome = { ...difference, fixed: true };
      } catch (error) {
        outcome = { ...difference, fixed: false, note: error instanceof Error ? error.message : 'failed' };
      }
      differences[differences.indexOf(difference)] = outcome;
      await options.onMend?.(outcome);
    }
  }
  return {
    checkedAt: new Date().toISOString(),
    checkedBy: options.checkedBy,
    fix: options.fix,
    differences,
    quicksightCalls: quickSightCallCount() - callsBefore,
  };
};

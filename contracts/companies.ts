import * as z from 'zod';
import { MESSAGES, adminEmail } from './fields.ts';

/**
 * Companies: the unit of access. Each user belongs to one company; an owner (private-equity)
 * account may hold several (its portfolio). The portal keeps one QuickSight group per company
 * and QuickSight row-level security (one rules dataset, UserARN/GroupARN -> company) limits every
 * company-scoped dashboard to the rows of the viewer's companies.
 */

export const COMPANY_KINDS = ['manufacturer', 'distributor', 'owner'] as const;
export type CompanyKind = (typeof COMPANY_KINDS)[number];

export const COMPANY_KIND_LABELS: Record<CompanyKind, string> = {
  manufacturer: 'Manufacturer',
  distributor: 'Distributor',
  owner: 'Private-equity firm',
};

const MAX_COMPANY_NAME_LENGTH = 100;
/**
 * The most companies one owner account holds (QuickSight allows 999 rules per user; each company is one group rule).
 */
const MAX_COMPANIES_PER_USER = 100;

/** The column of the rules dataset (and of every company-scoped dataset) that holds the company name. */
export const COMPANY_COLUMN = 'company';

export const COMPANY_MESSAGES = {
  nameRequired: 'Company name is required',
  nameTooLong: `Company name must be at most ${MAX_COMPANY_NAME_LENGTH} characters`,
  nameControl: 'Company name must not contain control or invisible formatting characters',
  nameSplits:
    'Company name must not contain a comma (,) or a double quote ("): QuickSight\'s row-level security would read the name as several companies',
  kindInvalid: 'Kind must be manufacturer, distributor or owner',
  nameTaken: (name: string) => `A company named "${name}" already exists`,
  unknownCompany: (name: string) => `Company "${name}" does not exist`,
  notFound: 'Company not found',
  hasUsers: (name: string, count: number) =>
    `Company "${name}" still has ${count} user${count === 1 ? '' : 's'}. Move ${count === 1 ? 'that user' : 'them'} to another company first.`,
  oneCompanyOnly: 'Only an owner account may hold more than one company',
  atLeastOne: 'Choose at least one company',
  tooMany: `At most ${MAX_COMPANIES_PER_USER} companies per account`,
  duplicate: (name: string) => `Company "${name}" is listed twice`,
  created: 'Company created',
  updated: 'Company updated',
  deleted: 'Company deleted',
  userCompaniesSet: 'Company updated for the user',
  changeInProgress: 'Another company change for this user is in progress. Please try again.',
  notScoped: (dashboard: string, company: string, holders: readonly string[]) =>
    `Dashboard ${dashboard} is not company-scoped: its datasets do not apply the portal's row-level security, so users of ${company} would see every row it shows, including the data of ${holders.join(', ')}. Confirm shared data for this dashboard to assign it across companies.`,
} as const;

/** C0/C1 controls, bidirectional overrides and isolates, zero-width characters. */
const INVISIBLE_OR_CONTROL = /[\p{Cc}\u200B-\u200F\u202A-\u202E\u2060-\u2069\uFEFF]/u;

/**
 * What QuickSight's row-level security reads inside a rule's value as more than one value: "If
 * a field includes a comma (,) Amazon QuickSight treats each word separated from another by a
 * comma as an individual value", and a double quote wraps a value that holds commas (user guide,
 * "Using row-level security with user-based rules to restrict access to a dataset"). A company
 * name is a rule's value, so a name with either would grant the rows of every company it spells.
 */
const RULE_VALUE_SEPARATORS = /[,"]/;

/** Whether a company name would be read as several values by the rules (names made before the rule existed may). */
export const nameSplitsInRules = (name: string): boolean => RULE_VALUE_SEPARATORS.test(name);

/** A company name: the one rule for every place a name enters (create, rename, import, the admin forms). */
export const companyName = z
  .string({ error: COMPANY_MESSAGES.nameRequired })
  .trim()
  .min(1, COMPANY_MESSAGES.nameRequired)
  .max(MAX_COMPANY_NAME_LENGTH, COMPANY_MESSAGES.nameTooLong)
  .refine((value) => !INVISIBLE_OR_CONTROL.test(value), COMPANY_MESSAGES.nameControl)
  .refine((value) => !nameSplitsInRules(value), COMPANY_MESSAGES.nameSplits);

/** A company name or nothing (an empty text), as a field where the company is optional takes it. */
export const optionalCompanyName = z
  .string()
  .trim()
  .superRefine((value, ctx) => {
    if (value === '') return;
    const checked = companyName.safeParse(value);
    if (!checked.success)
      for (const issue of checked.error.issues) ctx.addIssue({ code: 'custom', message: issue.message });
  });

export const companyKind = z.enum(COMPANY_KINDS, { error: COMPANY_MESSAGES.kindInvalid });

const companyId = z
  .string()
  .trim()
  .min(1, COMPANY_MESSAGES.notFound)
  .max(64)
  .regex(/^[a-z0-9-]+$/, COMPANY_MESSAGES.notFound);

const userEmail = z
  .string({ error: MESSAGES.userEmailRequired })
  .trim()
  .min(1, MESSAGES.userEmailRequired)
  .pipe(adminEmail);

/** The names of a user's companies: at least one, none twice (without regard to case). */
export const companyNames = z
  .array(companyName, { error: COMPANY_MESSAGES.atLeastOne })
  .min(1, COMPANY_MESSAGES.atLeastOne)
  .max(MAX_COMPANIES_PER_USER, COMPANY_MESSAGES.tooMany)
  .superRefine((names, ctx) => {
    const seen = new Set<string>();
    for (const name of names) {
      if (seen.has(name.toLowerCase())) ctx.addIssue({ code: 'custom', message: COMPANY_MESSAGES.duplicate(name) });
      seen.add(name.toLowerCase());
    }
  });

/** Company actions of the QuickSight management function (Admins only). */
export const companyRequestSchemas = [
  z.object({ action: z.literal('LIST_COMPANIES') }),
  z.object({ action: z.literal('CREATE_COMPANY'), name: companyName, kind: companyKind }),
  z.object({ action: z.literal('UPDATE_COMPANY'), companyId, name: companyName, kind: companyKind }),
  z.object({ action: z.literal('DELETE_COMPANY'), companyId }),
  z
    .object({
      action: z.literal('SET_USER_COMPANIES'),
      userEmail,
      companies: companyNames,
      /** An owner (private-equity) account may hold several companies. @default false */
      owner: z.boolean().default(false),
    })
    .superRefine((request, ctx) => {
      if (!request.owner && request.companies.length > 1) {
        ctx.addIssue({ code: 'custom', message: COMPANY_MESSAGES.oneCompanyOnly, path: ['companies'] });
      }
    }),
  z.object({ action: z.literal('CHECK_COMPANY_ACCESS'), fix: z.boolean().default(false) }),
] as const;

const companySchema = z.object({
  id: z.string(),
  name: z.string(),
  kind: z.enum(COMPANY_KINDS),
  /** The company's QuickSight group. */
  groupName: z.string(),
  userCount: z.number(),
  /** Catalogue dashboard IDs assigned to at least one of its users. */
  dashboards: z.array(z.string()),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type Company = z.infer<typeof companySchema>;

export const DIFFERENCE_KINDS = [
  /** The company has no QuickSight group. */
  'group-missing',
  /** A portal group in QuickSight that no company has. */
  'group-unexpected',
  /** A registered user of the company is not in its group. */
  'member-missing',
  /** A user in a company's group who does not belong to the company. */
  'member-unexpected',
  /** The rules file does not hold one rule per company. */
  'rules-outdated',
  /** The rules dataset is missing or its last ingestion did not complete. */
  'rules-not-loaded',
  /**
   * A dashboard in use by several companies whose datasets do not apply the rules, without a shared-data
   * confirmation.
   */
  'dashboard-not-scoped',
  /** A company name the rules read as several companies (a comma or a double quote): only a rename mends it. */
  'name-splits',
  /**
   * A company-scoped dashboard whose datasets lack the company tag rule (RowLevelPermissionTagConfiguration on
   * the same column as the group rules): its files cannot be delivered, as an emailed file's rows are chosen by tags.
   */
  'dashboard-no-tag-rules',
] as const;
export type DifferenceKind = (typeof DIFFERENCE_KINDS)[number];

const accessDifferenceSchema = z.object({
  kind: z.enum(DIFFERENCE_KINDS),
  /** The company the difference concerns (name), when there is one. */
  company: z.string().nullable(),
  /** The user (email) or dashboard ID the difference concerns, when there is one. */
  subject: z.string().nullable(),
  expected: z.string(),
  found: z.string(),
  /** With `fix`: whether it was mended (false: could not be, see `note`). */
  fixed: z.boolean().optional(),
  note: z.string().optional(),
});
export type AccessDifference = z.infer<typeof accessDifferenceSchema>;

export const accessCheckSchema = z.object({
  checkedAt: z.string(),
  /** Who ran it: an administrator's email, or `schedule` for the daily check. */
  checkedBy: z.string(),
  fix: z.boolean(),
  differences: z.array(accessDifferenceSchema),
  /** QuickSight calls the check made. */
  quicksightCalls: z.number(),
});
export type AccessCheck = z.infer<typeof accessCheckSchema>;

export const listCompaniesResponseSchema = z.object({
  companies: z.array(companySchema),
  lastCheck: accessCheckSchema.nullable(),
});
export const saveCompanyResponseSchema = z.object({ message: z.string(), company: companySchema });
export const deleteCompanyResponseSchema = z.object({ message: z.string(), company: companySchema });
export const setUserCompaniesResponseSchema = z.object({
  message: z.string(),
  userEmail: z.string(),
  companies: z.array(z.string()),
  owner: z.boolean(),
});

/** How a dashboard's data reaches users of different companies. */
export const DASHBOARD_SCOPES = ['company-scoped', 'not-scoped', 'unknown'] as const;
export type DashboardScope = (typeof DASHBOARD_SCOPES)[number];
export const DASHBOARD_SCOPE_LABELS: Record<DashboardScope, string> = {
  'company-scoped': 'Company-scoped',
  'not-scoped': 'Not scoped',
  unknown: 'Scope unknown',
};

/** The rules format the portal writes: UserARN, GroupARN and company columns, as QuickSight calls VERSION_2. */
const RULES_FORMAT_VERSION = 'VERSION_2';

/** A dataset's RowLevelPermissionDataSet, as DescribeDataSet answers it. */
export interface RulesAttachment {
  readonly Arn?: string;
  readonly PermissionPolicy?: string;
  readonly FormatVersion?: string;
  readonly Status?: string;
}

/**
 * Why a dataset does not apply the portal's rules as the portal writes them, or undefined when
 * it does: the rules dataset's ARN, GRANT_ACCESS, ENABLED (QuickSight treats a missing Status as
 * ENABLED) and FormatVersion VERSION_2 (a missing FormatVersion is VERSION_1, which reads the
 * rules' columns otherwise). Both the portal's *Company-scoped* label and `npm run doctor` ask this.
 */
export const rulesAttachmentProblem = (
  attachment: RulesAttachment | undefined,
  rulesArn: string,
): string | undefined => {
  if (!attachment?.Arn) return 'no row-level security';
  if (attachment.Arn !== rulesArn)
    return `row-level security from another dataset (${attachment.Arn.split('/').at(-1) ?? attachment.Arn})`;
  if ((attachment.Status ?? 'ENABLED') !== 'ENABLED') return 'the rules are attached but DISABLED';
  if (attachment.PermissionPolicy !== 'GRANT_ACCESS')
    return `PermissionPolicy ${attachment.PermissionPolicy ?? 'missing'} (GRANT_ACCESS expected)`;
  const format = attachment.FormatVersion ?? 'VERSION_1';
  if (format !== RULES_FORMAT_VERSION) return `FormatVersion ${format} (${RULES_FORMAT_VERSION} expected)`;
  return undefined;
};

/**
 * The tag the portal passes for an emailed file's anonymous user (StartDashboardSnapshotJob's
 * RowLevelPermissionTags): the subscriber's company names, joined with the delimiter the tag
 * rule declares. Company names never hold it (nameSplitsInRules refuses commas).
 */
export const COMPANY_TAG_KEY = 'company';
export const COMPANY_TAG_DELIMITER = ',';

/** A dataset's RowLevelPermissionTagConfiguration, as DescribeDataSet answers it. */
export interface TagRulesAttachment {
  readonly Status?: string;
  readonly TagRules?: readonly {
    readonly TagKey?: string;
    readonly ColumnName?: string;
    readonly TagMultiValueDelimiter?: string;
    readonly MatchAllValue?: string;
  }[];
}

/**
 * Why a dataset's tag rules do not limit an anonymous user to the companies the portal tags
 * it with, or undefined when they do: ENABLED, a rule for the {@link COMPANY_TAG_KEY} tag on
 * the same column as the group rules ({@link COMPANY_COLUMN}), the portal's delimiter, and no
 * match-all value (a value that would show every company's rows).
 */
export const tagRulesProblem = (configuration: TagRulesAttachment | undefined): string | undefined => {
  const rules = configuration?.TagRules ?? [];
  if (rules.length === 0) return 'no tag rules';
  if ((configuration?.Status ?? 'ENABLED') !== 'ENABLED') return 'the tag rules are DISABLED';
  const rule = rules.find((candidate) => candidate.TagKey === COMPANY_TAG_KEY);
  if (!rule) return `no tag rule for the ${COMPANY_TAG_KEY} tag`;
  if (rule.ColumnName !== COMPANY_COLUMN)
    return `the ${COMPANY_TAG_KEY} tag reads column ${rule.ColumnName ?? 'none'} (${COMPANY_COLUMN} expected)`;
  if (rule.TagMultiValueDelimiter !== COMPANY_TAG_DELIMITER)
    return `the ${COMPANY_TAG_KEY} tag's delimiter is ${rule.TagMultiValueDelimiter ?? 'unset'} ("${COMPANY_TAG_DELIMITER}" expected)`;
  if (rule.MatchAllValue !== undefined) return `the ${COMPANY_TAG_KEY} tag has a match-all value`;
  return undefined;
};

/** How an owner's companies appear in one text field (the assignment's companyName). */
export const companiesLabel = (names: readonly string[]): string =>
  [...names].sort((a, b) => a.localeCompare(b)).join(', ');

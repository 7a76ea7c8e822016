/**
 * The admin portal's words for companies and the company-access check, and the rules a
 * user's companies follow in the forms (the same as SET_USER_COMPANIES on the server).
 */
import {
  companiesLabel,
  COMPANY_KIND_LABELS,
  COMPANY_KINDS,
  COMPANY_MESSAGES,
  companyNames,
  type AccessCheck,
  type AccessDifference,
  type DifferenceKind,
} from '#contracts/companies.ts';
import { countText } from './count-text.ts';
import { formatWhen } from './activity-filter.ts';
import type { UserCompanies } from './api/admin-api.ts';

export const COMPANY_TEXTS = {
  noCompany: 'No company',
  ownerCheckbox: 'Owner account (several companies)',
  notChecked: 'Not checked yet',
  matches: 'QuickSight matches the portal',
  newCompany: 'New company',
  createdWithoutCompany: 'The account was created, but the company could not be set',
  setCompanyLater: 'Set the company with Edit.',
  loadChoicesFailed: 'The companies could not be loaded',
} as const;

/** The kinds as a select offers them. */
export const KIND_OPTIONS: readonly { value: string; label: string }[] = COMPANY_KINDS.map((kind) => ({
  value: kind,
  label: COMPANY_KIND_LABELS[kind],
}));

/** What each difference of the company-access check means, in words. */
export const DIFFERENCE_KIND_LABELS: Record<DifferenceKind, string> = {
  'group-missing': 'QuickSight group missing',
  'group-unexpected': 'QuickSight group without a company',
  'member-missing': 'User missing from the company group',
  'member-unexpected': 'User in a company group they do not belong to',
  'rules-outdated': 'Row-level security rules out of date',
  'rules-not-loaded': 'Row-level security rules not loaded',
  'dashboard-not-scoped': 'Dashboard shared across companies without row-level security',
  'dashboard-no-tag-rules': 'Dashboard whose emailed files are not limited to companies (no tag rules)',
  'name-splits': 'Company name QuickSight reads as several companies',
};

const differenceCountText = (count: number) =>
  count === 0 ? 'no differences' : countText(count, 'difference', 'differences');

/** Who ran a check: an administrator, or the daily schedule. */
const checkedByText = (checkedBy: string) => (checkedBy === 'schedule' ? 'the daily check' : checkedBy);

/** 'Last check: 3/14/2026, 10:00:00 AM by admin@example.com — 2 differences.' */
export const lastCheckText = (check: AccessCheck | null) =>
  check === null
    ? COMPANY_TEXTS.notChecked
    : `Last check: ${formatWhen(check.checkedAt)} by ${checkedByText(check.checkedBy)} — ${differenceCountText(check.differences.length)}.`;

/** Differences a fix has not mended (all of them for a check without fix). */
export const outstandingDifferences = (check: AccessCheck): AccessDifference[] =>
  check.differences.filter((difference) => difference.fixed !== true);

/** The toast after a check or a fix. */
export function checkOutcomeText(check: AccessCheck): string {
  const found = check.differences.length;
  if (found === 0) return `Check complete: ${COMPANY_TEXTS.matches}.`;
  if (!check.fix) return `Check complete: ${differenceCountText(found)} found.`;
  const fixed = found - outstandingDifferences(check).length;
  return `Fixed ${fixed} of ${differenceCountText(found)}.`;
}

/** The company of an account as the user lists show it: 'Acme', 'Owner: Acme, Globex' or 'No company'. */
export function userCompaniesText({ companies, owner }: UserCompanies): string {
  if (companies.length === 0) return COMPANY_TEXTS.noCompany;
  return owner ? `Owner: ${companiesLabel(companies)}` : companiesLabel(companies);
}

const companyKey = (name: string) => name.trim().toLowerCase();

/** Whether two choices name the same companies (in any order and case) with the same owner flag. */
export function sameCompanies(a: UserCompanies, b: UserCompanies): boolean {
  if (a.owner !== b.owner || a.companies.length !== b.companies.length) return false;
  const names = new Set(a.companies.map(companyKey));
  return b.companies.every((name) => names.has(companyKey(name)));
}

/** Why a choice of companies cannot be saved (the rules of SET_USER_COMPANIES), or null. */
export function userCompaniesProblem({ companies, owner }: UserCompanies): string | null {
  if (!owner && companies.length > 1) return COMPANY_MESSAGES.oneCompanyOnly;
  const checked = companyNames.safeParse(companies);
  return checked.success ? null : (checked.error.issues[0]?.message ?? COMPANY_MESSAGES.atLeastOne);
}

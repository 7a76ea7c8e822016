import type { RowLevelPermissionDataSet } from './data-shapes.ts';

/**
 * Row-level security with user-based rules, as the QuickSight user guide describes it ("Using
 * row-level security with user-based rules to restrict access to a dataset",
 * https://docs.aws.amazon.com/quicksight/latest/user/restrict-access-to-a-data-set-using-row-level-security.html)
 * and the API reference's RowLevelPermissionDataSet
 * (https://docs.aws.amazon.com/quicksight/latest/APIReference/API_RowLevelPermissionDataSet.html):
 * - a rule is a row of the rules dataset naming a user or group in its identity columns, and
 *   values for fields of the protected dataset in its other columns; a field value with commas
 *   holds several values;
 * - the identity columns depend on FormatVersion: "When FormatVersion is VERSION_1, UserName
 *   and GroupName are required. When FormatVersion is VERSION_2, UserARN and GroupARN are
 *   required". Field names are case-sensitive and must match exactly, so `GroupArn` is not
 *   `GroupARN`: a column spelt otherwise identifies nobody, and rules without the required
 *   columns grant nothing;
 * - a user sees the rows that match a field value of every non-empty field of one of the rules
 *   naming them or one of their groups; a rule with every field empty grants all rows;
 * - a user no rule names sees no rows; DENY_ACCESS shows the rows no such rule matches;
 * - a DISABLED configuration restricts nothing.
 * Rules that cannot be read (no rules dataset, or none loaded into SPICE) show nothing.
 */

export interface RlsViewer {
  readonly userName: string;
  readonly userArn: string;
  readonly groupNames: readonly string[];
  readonly groupArns: readonly string[];
}

export interface RulesTable {
  readonly columns: readonly string[];
  readonly rows: readonly (readonly (string | null)[])[];
}

/** A value of the protected row by column name; undefined when the dataset has no such column. */
export type RowValue = (column: string) => string | null | undefined;

export type RowPredicate = (value: RowValue) => boolean;

type FormatVersion = RowLevelPermissionDataSet['FormatVersion'];

/** The identity columns of each format, user column first, exactly as the API reference spells them. */
const IDENTITY_COLUMNS: Record<FormatVersion, readonly [user: string, group: string]> = {
  VERSION_1: ['UserName', 'GroupName'],
  VERSION_2: ['UserARN', 'GroupARN'],
};

/** The required identity columns a rules dataset's columns lack for a format (case-sensitive). */
export const missingIdentityColumns = (columns: readonly string[], format: FormatVersion): string[] =>
  IDENTITY_COLUMNS[format].filter((name) => !columns.includes(name));

const names = (value: string | null | undefined, ids: ReadonlySet<string>): boolean =>
  value !== null && value !== undefined && ids.has(value);

/** Every row: what a DISABLED configuration, or none, lets through. */
export const ALL_ROWS: RowPredicate = () => true;
const NONE: RowPredicate = () => false;

/**
 * Which rows of a dataset with `permission` the viewer may see. `rules` is the rules dataset's
 * SPICE table, undefined when it does not exist or has never loaded.
 */
export function rowPredicate(
  permission: RowLevelPermissionDataSet | undefined,
  rules: RulesTable | undefined,
  viewer: RlsViewer,
): RowPredicate {
  if (permission === undefined || permission.Status === 'DISABLED') return ALL_ROWS;
  if (rules === undefined) return NONE;
  const format = permission.FormatVersion;
  const [userColumn, groupColumn] = IDENTITY_COLUMNS[format];
  const denies = permission.PermissionPolicy === 'DENY_ACCESS';
  // Without the columns its format requires, the rules name nobody.
  if (missingIdentityColumns(rules.columns, format).length > 0) return denies ? ALL_ROWS : NONE;
  const byName = format === 'VERSION_1';
  const userIds = new Set([byName ? viewer.userName : viewer.userArn]);
  const groupIds = new Set(byName ? viewer.groupNames : viewer.groupArns);
  const userIndex = rules.columns.indexOf(userColumn);
  const groupIndex = rules.columns.indexOf(groupColumn);
  const fields = rules.columns.flatMap((name, index) =>
    index === userIndex || index === groupIndex ? [] : [{ name, index }],
  );
  // The viewer's rules, each as the accepted values of its non-empty fields.
  const applicable = rules.rows
    .filter((rule) => names(rule[userIndex], userIds) || names(rule[groupIndex], groupIds))
    .map((rule) =>
      fields.flatMap(({ name, index }) => {
        const value = rule[index];
        if (value === null || value === undefined || value === '') return [];
        return [{ name, accepted: new Set(value.split(',').map((part) => part.trim())) }];
      }),
    );
  const matchesARule: RowPredicate = (value) =>
    applicable.some((conditions) =>
      conditions.every(({ name, accepted }) => {
        const field = value(name);
        return field !== null && field !== undefined && accepted.has(field);
      }),
    );
  return denies ? (value) => !matchesARule(value) : matchesARule;
}

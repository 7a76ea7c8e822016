import type { RowLevelPermissionDataSet } from './data-shapes.ts';

/**
 * Row-level security with user-based rules, as the QuickSight user guide describes it ("Using
 * row-level security with user-based rules to restrict access to a dataset"):
 * - a rule is a row of the rules dataset naming a user or group in a UserName, GroupName,
 *   UserARN or GroupARN column, and values for fields of the protected dataset in its other
 *   columns; a field value with commas holds several values;
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

const IDENTITY_COLUMNS = ['username', 'groupname', 'userarn', 'grouparn'] as const;
type IdentityColumn = (typeof IDENTITY_COLUMNS)[number];

const isIdentityColumn = (name: string): name is IdentityColumn =>
  (IDENTITY_COLUMNS as readonly string[]).includes(name.toLowerCase());

function names(viewer: RlsViewer, column: IdentityColumn, value: string): boolean {
  switch (column) {
    case 'username':
      return value === viewer.userName;
    case 'userarn':
      return value === viewer.userArn;
    case 'groupname':
      return viewer.groupNames.includes(value);
    case 'grouparn':
      return viewer.groupArns.includes(value);
  }
}

const ALL: RowPredicate = () => true;
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
  if (permission === undefined || permission.Status === 'DISABLED') return ALL;
  if (rules === undefined) return NONE;
  const identity = rules.columns.flatMap((name, index) =>
    isIdentityColumn(name) ? [{ column: name.toLowerCase() as IdentityColumn, index }] : [],
  );
  const fields = rules.columns.flatMap((name, index) => (isIdentityColumn(name) ? [] : [{ name, index }]));
  // The viewer's rules, each as the accepted values of its non-empty fields.
  const applicable = rules.rows
    .filter((rule) =>
      identity.some(({ column, index }) => {
        const value = rule[index];
        return value !== null && value !== undefined && names(viewer, column, value);
      }),
    )
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
  return permission.PermissionPolicy === 'DENY_ACCESS' ? (value) => !matchesARule(value) : matchesARule;
}

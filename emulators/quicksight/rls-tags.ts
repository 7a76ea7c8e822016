import type { RowLevelPermissionTagConfiguration, RowLevelPermissionTagRule } from './data-shapes.ts';
import { invalidParameter } from './errors.ts';
import { ALL_ROWS, type RowPredicate } from './rls.ts';

/**
 * Row-level security with tag-based rules, for users QuickSight does not know (anonymous
 * embedding and anonymous snapshot jobs), as the user guide describes it ("Using row-level
 * security with tag-based rules to restrict access to a dataset when embedding dashboards for
 * anonymous users", https://docs.aws.amazon.com/quicksight/latest/user/quicksight-dev-rls-tags.html;
 * "Using row-level security in Amazon QuickSight",
 * https://docs.aws.amazon.com/quicksight/latest/user/row-level-security.html) and the API reference's
 * RowLevelPermissionTagConfiguration and RowLevelPermissionTagRule:
 * - a rule ties a tag key to a column; the caller passes the tag's value (SessionTag) and sees the
 *   rows whose column holds it; TagMultiValueDelimiter splits a value into several ("you can delimit
 *   the values with a comma"); a value equal to MatchAllValue matches "all the values in a column";
 * - the rules of a dataset are joined with AND (the guide's second tag "sets an additional layer of
 *   row-level security"), unless TagRuleConfigurations is given: "All tag configurations have the OR
 *   condition. Tags within each tile will be joined (AND)";
 * - "Values to tags must be passed when embedding dashboards": a rule whose tag was not passed
 *   matches no row, and a configuration applies only when "all tag values" of one of its lists were
 *   passed (the emulator's reading where the pages say no more: no applicable list, no rows);
 * - a DISABLED configuration restricts nothing.
 * Where the pages are silent the emulator is strict: keys, values and column names are compared
 * exactly (case- and space-sensitive, as user-based rules' field names are), a value is split on
 * the delimiter and never trimmed, only a whole value equal to MatchAllValue matches all, and a
 * NULL field matches no value.
 */

export interface SessionTag {
  readonly Key: string;
  readonly Value: string;
}

export interface TagColumn {
  readonly name: string;
  /** The column's type in the dataset (InputColumn.Type, or the sample datasets' output type). */
  readonly type: string;
}

/**
 * The checks CreateDataSet and UpdateDataSet make of a RowLevelPermissionTagConfiguration beyond
 * its shape, against the dataset's columns; throws the first problem as InvalidParameterValueException.
 */
export function requireValidTagConfiguration(
  configuration: RowLevelPermissionTagConfiguration,
  columns: readonly TagColumn[],
): void {
  const keys = new Set<string>();
  const taggedColumns = new Set<string>();
  for (const [index, rule] of configuration.TagRules.entries()) {
    const where = `RowLevelPermissionTagConfiguration.TagRules.${index}`;
    // RowLevelPermissionTagRule.TagKey: "The unique key for a tag."
    if (keys.has(rule.TagKey)) throw invalidParameter(`${where}.TagKey ${rule.TagKey} is used by another rule`);
    keys.add(rule.TagKey);
    // ColumnName: "The column name that a tag key is assigned to": a column of this dataset, named exactly.
    const column = columns.find((candidate) => candidate.name === rule.ColumnName);
    if (!column) {
      throw invalidParameter(
        `${where}.ColumnName ${rule.ColumnName} is not a column of the dataset (column names are case-sensitive)`,
      );
    }
    // The emulator's choices where the reference is silent: rules filter text columns (as
    // user-based rules do), one rule per column, and a delimiter that can split something.
    if (column.type !== 'STRING') {
      throw invalidParameter(
        `${where}.ColumnName ${rule.ColumnName} is ${column.type}: tag rules filter STRING columns`,
      );
    }
    if (taggedColumns.has(rule.ColumnName)) {
      throw invalidParameter(`${where}.ColumnName ${rule.ColumnName} already has a tag rule`);
    }
    taggedColumns.add(rule.ColumnName);
    if (rule.TagMultiValueDelimiter === '') throw invalidParameter(`${where}.TagMultiValueDelimiter must not be empty`);
  }
  // TagRuleConfigurations join tag keys: each must be the TagKey of a rule (the emulator's choice).
  for (const [index, keyList] of (configuration.TagRuleConfigurations ?? []).entries()) {
    const unknown = keyList.find((key) => !keys.has(key));
    if (unknown !== undefined) {
      throw invalidParameter(
        `RowLevelPermissionTagConfiguration.TagRuleConfigurations.${index} names ${unknown}, which is the TagKey of no rule`,
      );
    }
  }
}

/** The rows one rule lets through for the value passed for its tag. */
function rulePredicate(rule: RowLevelPermissionTagRule, value: string): RowPredicate {
  if (rule.MatchAllValue !== undefined && value === rule.MatchAllValue) return ALL_ROWS;
  const accepted = new Set(rule.TagMultiValueDelimiter ? value.split(rule.TagMultiValueDelimiter) : [value]);
  return (row) => {
    const field = row(rule.ColumnName);
    return field !== null && field !== undefined && accepted.has(field);
  };
}

/**
 * Which rows of a dataset with `configuration` a caller with session `tags` may see; undefined
 * when the dataset applies no tag-based rules (none, or DISABLED).
 */
export function tagRowPredicate(
  configuration: RowLevelPermissionTagConfiguration | undefined,
  tags: readonly SessionTag[],
): RowPredicate | undefined {
  if (configuration === undefined || configuration.Status === 'DISABLED') return undefined;
  const passed = new Map(tags.map((tag) => [tag.Key, tag.Value]));
  const rules = new Map(configuration.TagRules.map((rule) => [rule.TagKey, rule]));
  const keyLists = configuration.TagRuleConfigurations ?? [configuration.TagRules.map((rule) => rule.TagKey)];
  const applicable = keyLists
    .filter((keyList) => keyList.every((key) => passed.has(key) && rules.has(key)))
    .map((keyList) => keyList.map((key) => rulePredicate(rules.get(key)!, passed.get(key)!)));
  return (row) => applicable.some((predicates) => predicates.every((visible) => visible(row)));
}

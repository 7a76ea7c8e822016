import { asList, isRecord, readable, readableList, type StackTemplate } from './template.ts';

/** One statement of an IAM policy document (identity or resource policy), as a template holds it. */
export interface Statement {
  readonly Sid?: string;
  readonly Effect?: string;
  readonly Action?: unknown;
  readonly NotAction?: unknown;
  readonly Resource?: unknown;
  readonly NotResource?: unknown;
  readonly Principal?: unknown;
  readonly Condition?: unknown;
}

/** The statements of a policy document (one or a list). */
export const statementsOf = (document: unknown): Statement[] =>
  isRecord(document) ? asList(document.Statement as Statement | Statement[]) : [];

/** Readable conditions: `StringEquals ses:FromAddress = no-reply@example.com`. */
export function readableConditions(stack: StackTemplate, condition: unknown): string[] {
  if (!isRecord(condition)) return [];
  return Object.entries(condition).flatMap(([operator, keys]) =>
    isRecord(keys)
      ? Object.entries(keys).map(([key, value]) => `${operator} ${key} = ${readableList(stack, value).join(' | ')}`)
      : [],
  );
}

/** Readable principals of a statement or trust policy: `Service lambda.amazonaws.com`, `AWS *`. */
export function readablePrincipals(stack: StackTemplate, principal: unknown): string[] {
  if (principal === '*') return ['AWS *'];
  if (!isRecord(principal)) return principal === undefined ? [] : [readable(stack, principal)];
  return Object.entries(principal).flatMap(([kind, value]) => readableList(stack, value).map((v) => `${kind} ${v}`));
}

/** Whether an IAM action pattern (`s3:Get*`, `*`) matches an action, case-insensitively as IAM does. */
export function actionMatches(pattern: string, action: string): boolean {
  const regex = new RegExp(
    `^${pattern
      .split('*')
      .map((part) => part.replace(/[.+?^${}()|[\]\\]/g, '\\$&'))
      .join('.*')}$`,
    'i',
  );
  return regex.test(action);
}

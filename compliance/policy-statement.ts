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

import { z } from 'zod';
import { ERRORS, invalidParameter } from './errors.ts';

/**
 * Request validation with the messages of AWS's JSON services ("1 validation error
 * detected: Value null at 'username' failed to satisfy constraint: Member must not be
 * null"). Values of string members are never echoed: they may be passwords or codes.
 */
export function parseInput<S extends z.ZodType>(schema: S, body: unknown): z.output<S> {
  const result = schema.safeParse(withoutNulls(body), { reportInput: true });
  if (result.success) return result.data;
  const wrongType = result.error.issues.find((issue) => issue.code === 'invalid_type' && issue.input != null);
  if (wrongType) throw ERRORS.wrongType(memberPath(wrongType.path));
  const details = result.error.issues.map(describeIssue);
  const count = details.length === 1 ? '1 validation error detected' : `${details.length} validation errors detected`;
  throw invalidParameter(`${count}: ${details.join('; ')}`);
}

/** AWS JSON treats a member sent as null like one left out (the identity library sends nulls). */
function withoutNulls(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(withoutNulls);
  if (typeof value !== 'object' || value === null) return value;
  return Object.fromEntries(
    Object.entries(value)
      .filter(([, member]) => member !== null)
      .map(([name, member]) => [name, withoutNulls(member)]),
  );
}

function memberPath(path: readonly PropertyKey[]): string {
  return path.map((part) => (typeof part === 'number' ? `${part + 1}.member` : lowerFirst(String(part)))).join('.');
}

const lowerFirst = (name: string) => name.charAt(0).toLowerCase() + name.slice(1);

function describeIssue(issue: z.core.$ZodIssue): string {
  const at = `at '${memberPath(issue.path)}'`;
  const value = typeof issue.input === 'number' ? `Value '${issue.input}' ` : 'Value ';
  switch (issue.code) {
    case 'invalid_type':
      return `Value null ${at} failed to satisfy constraint: Member must not be null`;
    case 'too_small':
      return issue.origin === 'number'
        ? `${value}${at} failed to satisfy constraint: Member must have value greater than or equal to ${issue.minimum}`
        : `${value}${at} failed to satisfy constraint: Member must have length greater than or equal to ${issue.minimum}`;
    case 'too_big':
      return issue.origin === 'number'
        ? `${value}${at} failed to satisfy constraint: Member must have value less than or equal to ${issue.maximum}`
        : `${value}${at} failed to satisfy constraint: Member must have length less than or equal to ${issue.maximum}`;
    case 'invalid_format':
      return `${value}${at} failed to satisfy constraint: Member must satisfy regular expression pattern: ${
        'pattern' in issue && typeof issue.pattern === 'string' ? bareRegex(issue.pattern) : issue.format
      }`;
    case 'invalid_value':
      return `Value '${String(issue.input)}' ${at} failed to satisfy constraint: Member must satisfy enum value set: [${issue.values.join(', ')}]`;
    default:
      return `${value}${at} failed to satisfy constraint: ${issue.message}`;
  }
}

/** `/^[\w-]+$/u` -> `[\w-]+`, as the API reference writes patterns. */
const bareRegex = (pattern: string) => pattern.replace(/^\/\^?/, '').replace(/\$?\/[a-z]*$/, '');

/** Member shapes of the Cognito API reference. */
export const shapes = {
  userPoolId: z
    .string()
    .min(1)
    .max(55)
    .regex(/^[\w-]+_[0-9a-zA-Z]+$/),
  clientId: z
    .string()
    .min(1)
    .max(128)
    .regex(/^[\w+]+$/),
  username: z
    .string()
    .min(1)
    .max(128)
    .regex(/^[\p{L}\p{M}\p{S}\p{N}\p{P}]+$/u),
  password: z
    .string()
    .max(256)
    .regex(/^[\S]+$/),
  accessToken: z.string().regex(/^[A-Za-z0-9\-_=.]+$/),
  session: z.string().min(20).max(2048),
  confirmationCode: z
    .string()
    .min(1)
    .max(2048)
    .regex(/^[\S]+$/),
  userCode: z
    .string()
    .length(6)
    .regex(/^[0-9]+$/),
  groupName: z
    .string()
    .min(1)
    .max(128)
    .regex(/^[\p{L}\p{M}\p{S}\p{N}\p{P}]+$/u),
  limit: z.number().int().min(0).max(60),
  paginationToken: z.string().min(1).max(131072),
  stringMap: z.record(z.string(), z.string()),
  attributes: z.array(z.object({ Name: z.string().min(1).max(32), Value: z.string().max(2048).optional() })),
  attributeNames: z.array(z.string().min(1).max(32)),
  attributeName: z
    .string()
    .min(1)
    .max(32)
    .regex(/^[\p{L}\p{M}\p{S}\p{N}\p{P}]+$/u),
  mfaSettings: z.object({ Enabled: z.boolean().optional(), PreferredMfa: z.boolean().optional() }),
};

/** The Limit and NextToken members of the list requests that page with NextToken. */
export const nextTokenPaging = {
  Limit: shapes.limit.optional(),
  NextToken: shapes.paginationToken.optional(),
};

import { appendFileSync } from 'node:fs';
import { relative } from 'node:path';
import { expect, it } from 'vitest';
import { onAws } from './target.ts';

/**
 * The evidence of a conformance run against AWS: every response an SDK client of the suite
 * saw, by test, appended as JSON lines to CONFORMANCE_EVIDENCE_FILE (set by
 * `npm run conformance -- --aws`, which joins them with each case's result into the dated
 * record in conformance-results/). Secrets in answers (tokens, TOTP secrets, sessions,
 * passwords, embed URLs) are replaced before anything is written.
 */

export interface ObservedResponse {
  readonly file: string;
  /** The test's name as vitest gives it: describe titles and the test's, joined by ' > '. */
  readonly test: string;
  readonly service: string;
  readonly operation: string;
  readonly ok: boolean;
  readonly status?: number;
  readonly output?: unknown;
  readonly error?: { readonly name: string; readonly message: string };
}

const SECRET_MEMBER =
  /token|secret|password|session|embedurl|signinurl|authenticationresult|codedeliverydetails|userinvitationurl/i;

/** A copy of an answer with every member that may hold a credential replaced. */
export function redact(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(redact);
  if (value instanceof Date) return value.toISOString();
  if (value instanceof Uint8Array) return `[${value.byteLength} bytes]`;
  if (value !== null && typeof value === 'object') {
    return Object.fromEntries(
      Object.entries(value)
        .filter(([key]) => key !== '$metadata')
        .map(([key, member]) => [key, SECRET_MEMBER.test(key) ? '[redacted]' : redact(member)]),
    );
  }
  return value;
}

interface Stackable {
  middlewareStack: { add: (middleware: never, options: { step: 'initialize'; name: string }) => void };
}

/** Records each response `client` sees when the run keeps evidence; otherwise leaves it as it is. */
export function recordResponses<C extends Stackable>(client: C, file = process.env.CONFORMANCE_EVIDENCE_FILE): C {
  if (!file) return client;
  const write = (entry: Omit<ObservedResponse, 'file' | 'test'>) => {
    const state = expect.getState();
    const observed: ObservedResponse = {
      file: state.testPath ? relative(process.cwd(), state.testPath) : '',
      test: state.currentTestName ?? '(set-up or clean-up)',
      ...entry,
    };
    appendFileSync(file, `${JSON.stringify(observed)}\n`);
  };
  const middleware =
    (
      next: (args: unknown) => Promise<{ output: unknown; response?: { statusCode?: number } }>,
      context: { clientName?: string; commandName?: string },
    ) =>
    async (args: unknown) => {
      const service = (context.clientName ?? '').replace(/Client$/, '');
      const operation = (context.commandName ?? '').replace(/Command$/, '');
      try {
        const result = await next(args);
        write({ service, operation, ok: true, status: result.response?.statusCode, output: redact(result.output) });
        return result;
      } catch (error) {
        const e = error as { name?: string; message?: string; $metadata?: { httpStatusCode?: number } };
        write({
          service,
          operation,
          ok: false,
          status: e.$metadata?.httpStatusCode,
          error: { name: e.name ?? 'Error', message: e.message ?? String(error) },
        });
        throw error;
      }
    };
  client.middlewareStack.add(middleware as never, { step: 'initialize', name: 'conformanceEvidence' });
  return client;
}

/** The marker in a skipped case's title that carries its reason into the record. */
export const AWS_SKIP_MARK = 'skipped on AWS:';

/**
 * A case that cannot hold unchanged against AWS (it depends on the account's sandbox state or
 * on real mail): it runs in every local run, and in `--aws` runs is skipped with its reason,
 * which the title carries into the record.
 */
export function localOnly(reason: string): typeof it {
  if (!onAws) return it;
  return ((name: string) => it.skip(`${name} (${AWS_SKIP_MARK} ${reason})`)) as unknown as typeof it;
}

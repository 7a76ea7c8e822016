/** How the tools print: a checklist (doctor) and timed steps (verify-deployment). */

type CheckStatus = 'pass' | 'warn' | 'fail' | 'n/a';

export interface CheckResult {
  readonly title: string;
  readonly status: CheckStatus;
  /** What was found. */
  readonly detail: string;
  /** How to fix a failure or warning: the exact command or console page. */
  readonly fix?: string;
}

const MARK: Record<CheckStatus, string> = { pass: 'PASS', warn: 'WARN', fail: 'FAIL', 'n/a': 'N/A ' };

export function formatCheck(result: CheckResult): string {
  const lines = [`[${MARK[result.status]}] ${result.title}: ${result.detail}`];
  if (result.fix && (result.status === 'fail' || result.status === 'warn')) {
    lines.push(...result.fix.split('\n').map((line, i) => `       ${i === 0 ? 'Fix: ' : '     '}${line}`));
  }
  return lines.join('\n');
}

/** A failed check blocks the deployment; warnings and steps that do not apply do not. */
export const hasBlocker = (results: readonly CheckResult[]): boolean =>
  results.some((result) => result.status === 'fail');

/** @param ready what the target is ready for when nothing blocks, e.g. "Ready to deploy" */
export function summary(results: readonly CheckResult[], ready: string): string {
  const count = (status: CheckStatus) => results.filter((result) => result.status === status).length;
  const failed = count('fail');
  return failed > 0
    ? `${failed} blocker${failed > 1 ? 's' : ''} found (${count('pass')} passed, ${count('warn')} warnings): fix ${failed > 1 ? 'them' : 'it'} as shown above.`
    : `${ready}: ${count('pass')} passed, ${count('warn')} warnings, ${count('n/a')} not applicable.`;
}

/** Runs named steps in order, printing each with its duration; a failed step is printed and rethrown. */
export class StepPrinter {
  private failures = 0;

  constructor(private readonly write: (line: string) => void) {}

  get failed(): boolean {
    return this.failures > 0;
  }

  async run<T>(name: string, action: () => Promise<T>): Promise<T> {
    const started = performance.now();
    const took = () => `${Math.round(performance.now() - started)} ms`;
    try {
      const result = await action();
      this.write(`[ OK ] ${name} (${took()})`);
      return result;
    } catch (error) {
      this.failures += 1;
      this.write(`[FAIL] ${name} (${took()}): ${error instanceof Error ? error.message : String(error)}`);
      throw error;
    }
  }
}

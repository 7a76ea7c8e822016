import { writeFileSync } from 'node:fs';
import type { Reporter, TestModule } from 'vitest/node';

/**
 * A reporter that times each project of a run: from its first test file's start to its last
 * one's end, with its file and test counts and its slowest files (collection included). It
 * prints them when the run ends and, when PROJECT_TIMES_FILE is set (test/run.ts sets it),
 * writes them there as JSON for the summary of `npm test`.
 */
export interface ProjectTime {
  readonly project: string;
  readonly seconds: number;
  readonly files: number;
  readonly tests: number;
  readonly failed: number;
  readonly slowest: readonly { readonly file: string; readonly seconds: number }[];
  /** Each failed test (or file that failed before its tests ran) with the start of its first error. */
  readonly failures?: readonly string[];
}

/** How much of each failure's first error the summary repeats: enough to name the stage. */
const FAILURE_EXCERPT = 1_200;

function excerpt(errors: ReadonlyArray<{ message?: string; stack?: string }> | undefined): string {
  const first = errors?.[0];
  if (!first) return '(no error reported)';
  return (first.stack ?? first.message ?? '').slice(0, FAILURE_EXCERPT);
}

export const PROJECT_TIMES_FILE_ENV = 'PROJECT_TIMES_FILE';

export default class ProjectTimes implements Reporter {
  private readonly started = new Map<string, number>();
  private readonly ended = new Map<string, number>();

  onTestModuleStart(module: TestModule): void {
    this.started.set(module.moduleId, Date.now());
  }

  onTestModuleEnd(module: TestModule): void {
    this.ended.set(module.moduleId, Date.now());
  }

  onTestRunEnd(modules: ReadonlyArray<TestModule>): void {
    const byProject = new Map<string, TestModule[]>();
    for (const module of modules) {
      const name = module.project.name || 'default';
      byProject.set(name, [...(byProject.get(name) ?? []), module]);
    }
    const times: ProjectTime[] = [...byProject].map(([project, list]) => {
      const starts = list.map((m) => this.started.get(m.moduleId)).filter((t) => t !== undefined);
      const ends = list.map((m) => this.ended.get(m.moduleId)).filter((t) => t !== undefined);
      const tests = list.flatMap((m) => [...m.children.allTests()]);
      const fileSeconds = list.map((m) => ({
        file: m.relativeModuleId,
        seconds: ((this.ended.get(m.moduleId) ?? 0) - (this.started.get(m.moduleId) ?? 0)) / 1000,
      }));
      return {
        project,
        seconds: starts.length && ends.length ? (Math.max(...ends) - Math.min(...starts)) / 1000 : 0,
        files: list.length,
        tests: tests.length,
        failed:
          tests.filter((t) => t.result().state === 'failed').length +
          list.filter((m) => m.state() === 'failed' && [...m.children.allTests()].length === 0).length,
        slowest: fileSeconds.sort((a, b) => b.seconds - a.seconds).slice(0, 3),
        failures: [
          ...tests
            .filter((t) => t.result().state === 'failed')
            .map((t) => `${t.module.relativeModuleId} > ${t.fullName}\n${excerpt(t.result().errors)}`),
          ...list
            .filter((m) => m.state() === 'failed' && [...m.children.allTests()].length === 0)
            .map((m) => `${m.relativeModuleId}\n${excerpt(m.errors())}`),
        ],
      };
    });
    const file = process.env[PROJECT_TIMES_FILE_ENV];
    if (file) writeFileSync(file, JSON.stringify(times));
    else process.stdout.write(`\n${formatProjectTimes(times)}\n`);
  }
}

/** One line per project: its time, files and tests, and its slowest files. */
export function formatProjectTimes(times: readonly ProjectTime[]): string {
  const width = Math.max(...times.map((t) => t.project.length));
  return times
    .map(
      (t) =>
        `  ${t.project.padEnd(width)}  ${t.seconds.toFixed(0).padStart(5)} s  ${String(t.files).padStart(3)} files  ${String(t.tests).padStart(5)} tests${t.failed ? `  ${t.failed} failed` : ''}   slowest: ${t.slowest.map((s) => `${s.file} ${s.seconds.toFixed(0)} s`).join(', ')}`,
    )
    .join('\n');
}

/** The failures of every project, each indented under its name, for the end of the run. */
export function formatFailures(times: readonly ProjectTime[]): string {
  return times
    .flatMap((t) => t.failures ?? [])
    .map((failure) => `  FAILED ${failure.replaceAll('\n', '\n    ')}`)
    .join('\n');
}

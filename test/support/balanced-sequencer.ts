import { BaseSequencer, type TestSpecification } from 'vitest/node';

/**
 * Splits the files of a sharded run (`vitest run --shard=i/n`, as test/run.ts runs the
 * journeys in two lanes) by their expected time rather than by count: the longest files are
 * dealt first, each to the shard with the least time so far. Vitest's own split deals equal
 * numbers of files by a hash of their paths, which can put the four longest journeys in one
 * lane. Files not listed here count as {@link UNLISTED_SECONDS}. The order within a shard is
 * Vitest's (the cached durations of earlier runs, longest first).
 */
const EXPECTED_SECONDS: Readonly<Record<string, number>> = {
  // Measured on a clean clone's npm test, 2-core machine, the other lanes running, 2026-11-29.
  // With the Deliveries screen (about 8 s more).
  'test/e2e/every-screen.test.ts': 140,
  'test/e2e/user-account.test.ts': 97,
  'test/e2e/sign-in-features.test.ts': 85,
  'test/e2e/session-end.test.ts': 79,
  'test/e2e/admin-journey.test.ts': 75,
  'test/e2e/passkeys.test.ts': 60,
  // Measured alone (57 s of tests): the lanes' share of the machine adds about a third.
  'test/e2e/subscriptions.test.ts': 75,
  'test/e2e/user-dashboard.test.ts': 54,
  'test/e2e/companies.test.ts': 47,
  'test/e2e/admin-access.test.ts': 31,
  'test/e2e/compliance-html.test.ts': 31,
  'test/e2e/onboarding.test.ts': 30,
  'test/e2e/keyboard-only.test.ts': 24,
  'test/e2e/admin-a11y.test.ts': 23,
  'test/e2e/insights.test.ts': 22,
  'test/e2e/local-stack.test.ts': 11,
};
const UNLISTED_SECONDS = 60;

export default class BalancedSequencer extends BaseSequencer {
  override async shard(files: TestSpecification[]): Promise<TestSpecification[]> {
    const { shard, root } = this.ctx.config;
    if (!shard) return files;
    const relativePath = (spec: TestSpecification) => spec.moduleId.slice(root.length + 1);
    const expected = (spec: TestSpecification) => EXPECTED_SECONDS[relativePath(spec)] ?? UNLISTED_SECONDS;
    const longestFirst = [...files].sort(
      (a, b) => expected(b) - expected(a) || relativePath(a).localeCompare(relativePath(b)),
    );
    const load = Array.from({ length: shard.count }, () => 0);
    const mine: TestSpecification[] = [];
    for (const spec of longestFirst) {
      const least = load.indexOf(Math.min(...load));
      load[least]! += expected(spec);
      if (least === shard.index - 1) mine.push(spec);
    }
    return mine;
  }
}

/** One line of the table `npm run bench` prints. */
export interface BenchRow {
  readonly area: string;
  readonly metric: string;
  readonly value: string;
  /** The budget or reference it is compared with, if any. */
  readonly target?: string;
  /** Whether the value meets the target; absent when there is no target. */
  readonly ok?: boolean;
  /**
   * What the target constrains. A `count` (calls, rows listed, accounts created) or a `size`
   * (bytes of a build) does not depend on the machine, so `npm run bench -- --smoke` fails when
   * one is missed; a `time` (or ratio of times) is reported only, since shared machines are noisy.
   */
  readonly kind?: 'count' | 'size' | 'time';
}

/** How a module is run: `smoke` is the small scale `npm test` uses to keep every module working. */
export interface BenchOptions {
  readonly smoke: boolean;
}

/** Each bench module exports `run`, which measures and returns its rows. */
export type BenchModule = { run: (options: BenchOptions) => Promise<BenchRow[]> };

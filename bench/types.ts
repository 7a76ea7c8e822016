/** One line of the table `npm run bench` prints. */
export interface BenchRow {
  readonly area: string;
  readonly metric: string;
  readonly value: string;
  /** The budget or reference it is compared with, if any. */
  readonly target?: string;
  /** Whether the value meets the target; absent when there is no target. */
  readonly ok?: boolean;
}

/** Each bench module exports `run`, which measures and returns its rows. */
export type BenchModule = { run: () => Promise<BenchRow[]> };

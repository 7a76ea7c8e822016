/**
 * Work the emulator finishes after answering, as QuickSight does (a data source's creation):
 * tasks run after a delay, one waiting task per key, and stopping drops the waiting ones and
 * waits for those running, so that nothing writes to the state after it is closed.
 */
export class Background {
  private readonly waiting = new Map<string, NodeJS.Timeout>();
  private readonly running = new Set<Promise<void>>();
  private stopped = false;

  constructor(private readonly onError: (error: unknown) => void) {}

  readonly later = (key: string, delayMs: number, task: () => Promise<void>): void => {
    if (this.stopped) return;
    clearTimeout(this.waiting.get(key));
    const timer = setTimeout(() => {
      this.waiting.delete(key);
      const run = task()
        .catch(this.onError)
        .finally(() => this.running.delete(run));
      this.running.add(run);
    }, delayMs);
    this.waiting.set(key, timer);
  };

  async stop(): Promise<void> {
    this.stopped = true;
    for (const timer of this.waiting.values()) clearTimeout(timer);
    this.waiting.clear();
    await Promise.all([...this.running]);
  }
}

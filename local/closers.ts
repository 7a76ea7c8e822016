/** What has been started so far, stopped in reverse order (also when start-up fails half-way). */
export class Closers {
  private readonly closers: (() => Promise<void>)[] = [];

  add(close: () => Promise<void>): void {
    this.closers.push(close);
  }

  async closeAll(): Promise<void> {
    const errors: unknown[] = [];
    for (const close of this.closers.splice(0).reverse()) {
      await close().catch((error: unknown) => errors.push(error));
    }
    if (errors.length > 0) throw new AggregateError(errors, 'Some local services did not stop cleanly');
  }
}

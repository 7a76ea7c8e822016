import { mkdir, open, readFile, rename, writeFile, type FileHandle } from 'node:fs/promises';
import { join } from 'node:path';
import type { CollectionName, JournalEntry, PoolSnapshot } from './state.ts';

/**
 * The pool lives in a snapshot (written to a temporary file and renamed into place) plus
 * an append-only journal of changed records. Every answer waits for its journal lines, so
 * an acknowledged change survives a restart, while a change costs one small append
 * instead of rewriting the whole pool (10,000 accounts are several megabytes).
 */

const SNAPSHOT_FILE = 'cognito-pool.json';
const JOURNAL_FILE = 'cognito-pool.journal';
/** Journal length at which the snapshot is rewritten and the journal emptied. */
const COMPACT_AFTER_LINES = 20_000;

export type JournalRecord = Omit<JournalEntry, 's'>;

/** Reads the snapshot and replays the journal; undefined when the pool was never created. */
export async function loadPool(dataDir: string): Promise<PoolSnapshot | undefined> {
  const snapshotText = await readOptional(join(dataDir, SNAPSHOT_FILE));
  if (snapshotText === undefined) return undefined;
  let snapshot: PoolSnapshot;
  try {
    snapshot = JSON.parse(snapshotText) as PoolSnapshot;
  } catch {
    throw new Error(
      `The identity provider state in ${join(dataDir, SNAPSHOT_FILE)} is not valid JSON; start with a reset.`,
    );
  }
  const journalText = (await readOptional(join(dataDir, JOURNAL_FILE))) ?? '';
  return replay(snapshot, journalText);
}

function replay(snapshot: PoolSnapshot, journalText: string): PoolSnapshot {
  const collections: Record<CollectionName, Map<string, unknown>> = {
    user: new Map(snapshot.users.map((user) => [user.username, user])),
    group: new Map(snapshot.groups.map((group) => [group.name, group])),
    origin: new Map(snapshot.origins.map((origin) => [origin.jti, origin])),
  };
  let seq = snapshot.seq;
  for (const line of journalText.split('\n')) {
    const entry = parseLine(line);
    // Lines up to the snapshot's sequence are already in it (a compaction was cut short).
    if (!entry || entry.s <= snapshot.seq) continue;
    if (entry.v === null) collections[entry.c].delete(entry.k);
    else collections[entry.c].set(entry.k, entry.v);
    seq = Math.max(seq, entry.s);
  }
  return {
    ...snapshot,
    seq,
    users: [...collections.user.values()] as PoolSnapshot['users'],
    groups: [...collections.group.values()] as PoolSnapshot['groups'],
    origins: [...collections.origin.values()] as PoolSnapshot['origins'],
  };
}

/** A process stopped mid-write leaves a torn last line: it was never acknowledged. */
function parseLine(line: string): JournalEntry | undefined {
  if (!line.trim()) return undefined;
  try {
    const entry = JSON.parse(line) as JournalEntry;
    return typeof entry.s === 'number' && ['user', 'group', 'origin'].includes(entry.c) ? entry : undefined;
  } catch {
    return undefined;
  }
}

async function readOptional(path: string): Promise<string | undefined> {
  try {
    return await readFile(path, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
}

export class PoolJournal {
  private queue: Promise<void> = Promise.resolve();
  private lines = 0;

  private constructor(
    private readonly dataDir: string,
    private readonly handle: FileHandle,
    private seq: number,
  ) {}

  static async open(dataDir: string, seq: number): Promise<PoolJournal> {
    await mkdir(dataDir, { recursive: true });
    const handle = await open(join(dataDir, JOURNAL_FILE), 'a');
    return new PoolJournal(dataDir, handle, seq);
  }

  /** Appends records in call order; resolves once they are written. */
  append(records: readonly JournalRecord[], capture: (seq: number) => PoolSnapshot): Promise<void> {
    if (records.length === 0) return this.queue;
    const text = records.map((record) => JSON.stringify({ s: ++this.seq, ...record })).join('\n') + '\n';
    this.lines += records.length;
    const written = this.enqueue(async () => {
      await this.handle.appendFile(text, 'utf8');
    });
    if (this.lines >= COMPACT_AFTER_LINES) void this.compact(capture).catch(() => undefined);
    return written;
  }

  /** Writes the whole pool as the new snapshot and empties the journal. */
  compact(capture: (seq: number) => PoolSnapshot): Promise<void> {
    this.lines = 0;
    return this.enqueue(async () => {
      const snapshot = capture(this.seq);
      const target = join(this.dataDir, SNAPSHOT_FILE);
      const temporary = `${target}.${process.pid}.tmp`;
      await writeFile(temporary, JSON.stringify(snapshot), 'utf8');
      await rename(temporary, target);
      await this.handle.truncate(0);
    });
  }

  async close(capture: (seq: number) => PoolSnapshot): Promise<void> {
    await this.compact(capture);
    await this.handle.close();
  }

  private enqueue(task: () => Promise<void>): Promise<void> {
    const run = this.queue.then(task);
    this.queue = run.catch(() => undefined);
    return run;
  }
}

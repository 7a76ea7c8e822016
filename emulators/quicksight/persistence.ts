import { randomBytes } from 'node:crypto';
import { mkdir, open, readFile, rename, type FileHandle } from 'node:fs/promises';
import path from 'node:path';
import { z } from 'zod';
import { QuickSightState, snapshotSchema, stateChangeSchema, type Snapshot, type StateChange } from './state.ts';

/**
 * State on disk: a JSON snapshot replaced atomically (write, fsync, rename) and a journal
 * of the changes made since, one JSON line each. A change costs one small append instead
 * of rewriting every user, so registering thousands of users stays fast; the journal is
 * folded into a new snapshot at start, every COMPACT_AFTER_CHANGES changes and at close.
 */

export const SNAPSHOT_FILE = 'quicksight-state.json';
export const JOURNAL_FILE = 'quicksight-journal.jsonl';
const COMPACT_AFTER_CHANGES = 2000;

const journalEntrySchema = z.object({ seq: z.number().int().positive(), change: stateChangeSchema });

export interface StateStore {
  readonly state: QuickSightState;
  /** Applies a change and resolves once it is on disk. */
  commit(change: StateChange): Promise<void>;
  close(): Promise<void>;
}

export interface StateStoreOptions {
  dataDir: string;
  accountId: string;
  now: () => number;
}

class UnreadableStateError extends Error {
  constructor(file: string, reason: string) {
    super(`QuickSight emulator state ${file} is unreadable (${reason}); remove it or start with --reset`);
    this.name = 'UnreadableStateError';
  }
}

async function readIfExists(file: string): Promise<string | undefined> {
  try {
    return await readFile(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
}

async function readSnapshot(file: string, accountId: string): Promise<Snapshot | undefined> {
  const text = await readIfExists(file);
  if (text === undefined) return undefined;
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    throw new UnreadableStateError(file, 'not JSON');
  }
  const parsed = snapshotSchema.safeParse(json);
  if (!parsed.success) throw new UnreadableStateError(file, 'unexpected content');
  if (parsed.data.accountId !== accountId) {
    throw new UnreadableStateError(file, `it belongs to account ${parsed.data.accountId}, not ${accountId}`);
  }
  return parsed.data;
}

/** Replays journal lines newer than the snapshot; stops at a line cut short by a crash. */
function replayJournal(text: string, state: QuickSightState, fromSeq: number): number {
  let seq = fromSeq;
  for (const line of text.split('\n')) {
    if (line.trim() === '') continue;
    let entry: z.infer<typeof journalEntrySchema>;
    try {
      entry = journalEntrySchema.parse(JSON.parse(line));
    } catch {
      break;
    }
    if (entry.seq <= seq) continue;
    state.apply(entry.change);
    seq = entry.seq;
  }
  return seq;
}

async function writeAtomically(file: string, content: string): Promise<void> {
  const temporary = `${file}.${randomBytes(6).toString('hex')}.tmp`;
  const handle = await open(temporary, 'w', 0o600);
  try {
    await handle.writeFile(content, 'utf8');
    await handle.sync();
  } finally {
    await handle.close();
  }
  await rename(temporary, file);
}

export async function openStateStore({ dataDir, accountId, now }: StateStoreOptions): Promise<StateStore> {
  await mkdir(dataDir, { recursive: true });
  const snapshotFile = path.join(dataDir, SNAPSHOT_FILE);
  const journalFile = path.join(dataDir, JOURNAL_FILE);

  const snapshot = await readSnapshot(snapshotFile, accountId);
  const state = new QuickSightState(snapshot);
  let seq = replayJournal((await readIfExists(journalFile)) ?? '', state, snapshot?.seq ?? 0);
  let journalLength = 0;

  const compact = async (journal: FileHandle) => {
    state.forgetSpentSessions(now());
    await writeAtomically(snapshotFile, JSON.stringify(state.toSnapshot(accountId, seq)));
    await journal.truncate(0);
    journalLength = 0;
  };

  const journal = await open(journalFile, 'a', 0o600);
  await compact(journal);

  // Appends and compactions run one at a time, in commit order.
  let queue: Promise<void> = Promise.resolve();
  let closed: Promise<void> | undefined;

  const enqueue = (task: () => Promise<void>): Promise<void> => {
    const run = queue.then(task);
    queue = run.catch(() => undefined);
    return run;
  };

  return {
    state,
    commit(change) {
      if (closed) return Promise.reject(new Error('The QuickSight emulator is closed'));
      state.apply(change);
      seq += 1;
      const line = `${JSON.stringify({ seq, change })}\n`;
      return enqueue(async () => {
        await journal.write(line);
        journalLength += 1;
        if (journalLength >= COMPACT_AFTER_CHANGES) await compact(journal);
      });
    },
    close() {
      closed ??= enqueue(() => compact(journal)).finally(() => journal.close());
      return closed;
    },
  };
}

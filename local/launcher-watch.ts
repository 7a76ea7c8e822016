import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { processAlive } from './process-alive.ts';

/** The parent of a process, or null when it cannot be read (gone, or no /proc and no ps). */
export function parentPid(pid: number): number | null {
  try {
    // /proc/<pid>/stat: "pid (command) state ppid ..."; the command may contain spaces and parentheses.
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
    return Number.isInteger(ppid) ? ppid : null;
  } catch {
    try {
      const ppid = Number(execFileSync('ps', ['-o', 'ppid=', '-p', String(pid)], { encoding: 'utf8' }).trim());
      return Number.isInteger(ppid) && ppid > 0 ? ppid : null;
    } catch {
      return null;
    }
  }
}

/**
 * The processes between this one and whoever ran the command, nearest first: under `npm start`
 * that is the shell npm runs scripts with, then npm itself. npm answers
 * SIGTERM by killing only its shell, and a shell does not pass the signal on, so the stack
 * watches these and stops when one of them ends.
 */
export function launcherChain(depth: number, start = process.ppid): number[] {
  const chain: number[] = [];
  let pid: number | null = start;
  while (pid !== null && pid > 1 && chain.length < depth) {
    chain.push(pid);
    pid = parentPid(pid);
  }
  return chain;
}

/**
 * Calls `onGone` once when any of the given processes has ended, checking every `intervalMs`.
 * The timer does not keep the process alive. Returns a function that stops watching.
 */
export function watchProcesses(pids: readonly number[], onGone: (pid: number) => void, intervalMs = 500): () => void {
  const timer = setInterval(() => {
    const gone = pids.find((pid) => !processAlive(pid));
    if (gone === undefined) return;
    clearInterval(timer);
    onGone(gone);
  }, intervalMs);
  timer.unref();
  return () => clearInterval(timer);
}

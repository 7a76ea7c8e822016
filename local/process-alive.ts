/**
 * Whether a process exists: signal 0 checks without sending anything. A process of another
 * user answers EPERM and still counts.
 */
export function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** Whether any process of the group led by `pgid` is left. */
export const groupAlive = (pgid: number): boolean => processAlive(-pgid);

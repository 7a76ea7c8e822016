import type { Logger } from '@aws-lambda-powertools/logger';
import type { Caller } from './auth/caller.ts';
import { writeAuditEntry } from './data/audit.ts';
import { HttpError } from './errors.ts';

export interface AuditSubject {
  readonly caller: Caller;
  readonly action: string;
  /** The account or record acted on. */
  readonly target: string | null;
}

const failureDetail = (error: unknown) => (error instanceof HttpError ? error.message : 'Internal failure');

/**
 * Runs an admin mutation and records actor, action, target, time and outcome. A failure to
 * write the trail is logged, never turned into a failed answer for work that was done.
 */
export const audited = async <T>(
  logger: Logger,
  subject: AuditSubject,
  work: () => Promise<T>,
  describe: (result: T) => string | null = () => null,
): Promise<T> => {
  const record = async (outcome: 'success' | 'failure', detail: string | null) => {
    try {
      await writeAuditEntry({ actor: subject.caller.email, action: subject.action, target: subject.target, outcome, detail });
    } catch (error) {
      logger.error('Audit entry could not be written', { action: subject.action, outcome, error: error as Error });
    }
  };
  let result: T;
  try {
    result = await work();
  } catch (error) {
    await record('failure', failureDetail(error));
    throw error;
  }
  await record('success', describe(result));
  return result;
};

/** `audited` for the steps of one request: the caller and the action are the same for each. */
export const auditorFor =
  (logger: Logger, caller: Caller, action: string) =>
  <T>(target: string | null, work: () => Promise<T>, describe?: (result: T) => string | null): Promise<T> =>
    audited(logger, { caller, action, target }, work, describe);

/** The audit detail of a deleted user, the same whichever function deleted them. */
export const describeUserDeletion = (result: { readonly removedViews: number; readonly quicksightUser: string }) =>
  `views removed: ${result.removedViews}; QuickSight user: ${result.quicksightUser}`;

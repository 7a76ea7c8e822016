import type { Logger } from './logger.ts';
import type { Caller } from './auth/caller.ts';
import { writeAuditEntry } from './data/audit.ts';
import { HttpError } from './errors.ts';

export interface AuditSubject {
  readonly caller: Caller;
  readonly action: string;
  /** The account or record acted on. */
  readonly target: string | null;
}

/**
 * How the trail names what was acted on: known before the work, or (for a record known by
 * an internal id) read from the result, with the id kept when the work fails.
 */
export type AuditTarget<T> = string | null | { readonly before: string; readonly fromResult: (result: T) => string };

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
  targetOf: (result: T) => string | null = () => subject.target,
): Promise<T> => {
  const record = async (outcome: 'success' | 'failure', detail: string | null, target: string | null) => {
    try {
      await writeAuditEntry({ actor: subject.caller.email, action: subject.action, target, outcome, detail });
    } catch (error) {
      logger.error('Audit entry could not be written', { action: subject.action, outcome, error: error as Error });
    }
  };
  let result: T;
  try {
    result = await work();
  } catch (error) {
    await record('failure', failureDetail(error), subject.target);
    throw error;
  }
  await record('success', describe(result), targetOf(result));
  return result;
};

/** `audited` for the steps of one request: the caller and the action are the same for each. */
export const auditorFor =
  (logger: Logger, caller: Caller, action: string) =>
  <T>(target: AuditTarget<T>, work: () => Promise<T>, describe?: (result: T) => string | null): Promise<T> =>
    target !== null && typeof target === 'object'
      ? audited(logger, { caller, action, target: target.before }, work, describe, target.fromResult)
      : audited(logger, { caller, action, target }, work, describe);

/** The audit detail of a deleted user, the same whichever function deleted them. */
export const describeUserDeletion = (result: {
  readonly removedViews: number;
  readonly quicksightUser: string;
  readonly canceledSubscriptions?: number;
}) =>
  `views removed: ${result.removedViews}; QuickSight user: ${result.quicksightUser}` +
  (result.canceledSubscriptions ? `; subscriptions canceled: ${result.canceledSubscriptions}` : '');

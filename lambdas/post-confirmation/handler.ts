import type { PostConfirmationTriggerEvent } from 'aws-lambda';
import { USERS_GROUP } from '../shared/auth/groups.ts';
import { createLogger } from '../shared/logger.ts';

const logger = createLogger('post-confirmation');

/**
 * Cognito post-confirmation trigger: a confirmed self-sign-up joins the Users group (adding
 * again is harmless). Other confirmations (password reset) pass through. The pool id comes
 * from the event, which keeps the trigger free of a dependency on its own pool.
 */
export const handler = async (event: PostConfirmationTriggerEvent): Promise<PostConfirmationTriggerEvent> => {
  if (event.triggerSource !== 'PostConfirmation_ConfirmSignUp') return event;
  // The Cognito client is loaded by the confirmations that use it, not when the function starts.
  await (await import('./join-users-group.ts')).joinUsersGroup(event.userPoolId, event.userName);
  logger.info('Confirmed user added to group', { group: USERS_GROUP });
  return event;
};

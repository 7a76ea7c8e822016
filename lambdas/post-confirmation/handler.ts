import { AdminAddUserToGroupCommand } from '@aws-sdk/client-cognito-identity-provider';
import type { PostConfirmationTriggerEvent } from 'aws-lambda';
import { USERS_GROUP } from '../shared/auth/groups.ts';
import { cognito } from '../shared/aws/cognito.ts';
import { createLogger } from '../shared/logger.ts';

const logger = createLogger('post-confirmation');

/**
 * Cognito post-confirmation trigger: a confirmed self-sign-up joins the Users group (adding
 * again is harmless). Other confirmations (password reset) pass through. The pool id comes
 * from the event, which keeps the trigger free of a dependency on its own pool.
 */
export const handler = async (event: PostConfirmationTriggerEvent): Promise<PostConfirmationTriggerEvent> => {
  if (event.triggerSource !== 'PostConfirmation_ConfirmSignUp') return event;
  await cognito.send(new AdminAddUserToGroupCommand({ UserPoolId: event.userPoolId, Username: event.userName, GroupName: USERS_GROUP }));
  logger.info('Confirmed user added to group', { group: USERS_GROUP });
  return event;
};

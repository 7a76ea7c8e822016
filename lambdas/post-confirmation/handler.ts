import type { PostConfirmationTriggerEvent } from 'aws-lambda';
import { USERS_GROUP } from '#contracts/groups.ts';
import { createLogger } from '../shared/logger.ts';

const logger = createLogger('post-confirmation');

/**
 * Cognito post-confirmation trigger. A confirmed self-sign-up joins the Users group (adding
 * again is harmless) and the portal's copy of the directory. A password reset by emailed code
 * ends every session of the account:
 * whoever held the old password, or a token from it, is signed out. The pool id comes from the
 * event, which keeps the trigger free of a dependency on its own pool. A failure fails the
 * confirmation's answer, so the user sees it rather than keep sessions they meant to end.
 */
export const handler = async (event: PostConfirmationTriggerEvent): Promise<PostConfirmationTriggerEvent> => {
  // The clients and the logger are loaded by the confirmations that use them, not when the function starts.
  await logger.ready();
  if (event.triggerSource === 'PostConfirmation_ConfirmSignUp') {
    const { joinUsersGroup, recordConfirmedAccount } = await import('./join-users-group.ts');
    await joinUsersGroup(event.userPoolId, event.userName);
    logger.info('Confirmed user added to group', { group: USERS_GROUP });
    if (!(await recordConfirmedAccount(event.userName, event.request.userAttributes.email))) {
      logger.warn('The portal directory copy did not take the confirmed account; it appears at the next full listing');
    }
  } else if (event.triggerSource === 'PostConfirmation_ConfirmForgotPassword') {
    await (await import('../shared/auth/end-sessions.ts')).endAllSessions(event.userPoolId, event.userName);
    logger.info('Password reset: every session of the account ended');
  }
  return event;
};

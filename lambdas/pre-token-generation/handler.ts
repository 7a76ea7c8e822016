import type { PreTokenGenerationV2TriggerEvent } from 'aws-lambda';
import { COGNITO_ADMIN_SCOPE } from '#contracts/user-pool-client.ts';

/**
 * Cognito pre token generation trigger (event version 2, Essentials feature plan): tokens from a
 * refresh lose the `aws.cognito.signin.user.admin` scope. With that scope an access token may
 * call Cognito's own operations for its user (AssociateSoftwareToken, VerifySoftwareToken,
 * SetUserMFAPreference, devices, GetUser...), which Cognito authorizes by the token alone.
 * Access tokens last 5 minutes, so only a sign-in of the last 5 minutes can change the
 * authenticator, whoever calls: the portal's MFA function or Cognito directly.
 *
 * Every other claim is left as Cognito wrote it. The trigger needs no AWS call and no
 * configuration, so it cannot fail on a dependency.
 */
export const handler = async (event: PreTokenGenerationV2TriggerEvent): Promise<PreTokenGenerationV2TriggerEvent> => {
  if (event.triggerSource !== 'TokenGeneration_RefreshTokens') return event;
  event.response = {
    claimsAndScopeOverrideDetails: {
      ...event.response.claimsAndScopeOverrideDetails,
      accessTokenGeneration: {
        ...event.response.claimsAndScopeOverrideDetails?.accessTokenGeneration,
        scopesToSuppress: [COGNITO_ADMIN_SCOPE],
      },
    },
  };
  return event;
};

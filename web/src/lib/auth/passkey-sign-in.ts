/**
 * Sign-in with a passkey, loaded only when someone chooses it: Cognito's choice-based flow
 * (InitiateAuth USER_AUTH preferring the WEB_AUTHN challenge), which amazon-cognito-identity-js
 * does not speak, through the library's own client; the browser's ceremony (passkey-ceremony.ts)
 * on Cognito's CREDENTIAL_REQUEST_OPTIONS; then the library's usual end of a sign-in step. A
 * passkey with user verification, where passkeys count as the account's MFA, ends the sign-in;
 * otherwise Cognito goes on to the authenticator code (or its set-up).
 */
import { NO_PASSKEY_MESSAGE } from '#contracts/passkey-messages.ts';
import type { LibraryUser } from './cognito-library.ts';
import type { CognitoAuthService } from './cognito-service.ts';
import { signWithPasskey } from './passkey-ceremony.ts';
import { AuthError, toAuthError, type SignInResult } from './types.ts';

/** A passkey sign-in for an account Cognito offers no passkey for (none added, or passkeys off). */
const NO_PASSKEY_CODE = 'NoPasskey';

/** One call of Cognito's API through the library's client (its endpoint, headers and error form). */
function libraryRequest(
  user: LibraryUser,
  operation: string,
  params: Record<string, unknown>,
): Promise<Record<string, unknown>> {
  return new Promise((resolve, reject) => {
    user.client.request(operation, params, (error, data) =>
      error || !data ? reject(toAuthError(error)) : resolve(data),
    );
  });
}

/**
 * Signed in by the passkey alone: the MFA function (`accountUrl`) records the passkey's last use,
 * which the MFA page shows, with the new session's token. Not worth failing the sign-in for.
 */
function notePasskeyUse(result: SignInResult, credentialId: string, accountUrl: string | undefined): void {
  if (result.step !== 'DONE' || !accountUrl) return;
  const token = result.session.accessToken;
  void import('./account-actions.ts')
    .then(({ accountActions }) => accountActions(accountUrl, async () => token).passkeyUsed(credentialId))
    .catch((error: unknown) =>
      console.warn('Could not record the passkey use:', error instanceof Error ? error.message : error),
    );
}

/**
 * `sign` runs the browser's ceremony on the request options (replaced in tests). Failures are
 * AuthErrors (Cognito's, or NO_PASSKEY_CODE) or the ceremony's PasskeyError, as they came.
 */
export async function passkeySignIn(
  service: CognitoAuthService,
  clientId: string,
  email: string,
  accountUrl?: string,
  sign: (requestOptions: string) => Promise<{ id: string }> = signWithPasskey,
): Promise<SignInResult> {
  const user = await service.beginSignIn(email);
  const internals = user as unknown as LibraryUser;
  try {
    const started = await libraryRequest(internals, 'InitiateAuth', {
      AuthFlow: 'USER_AUTH',
      ClientId: clientId,
      AuthParameters: { USERNAME: email, PREFERRED_CHALLENGE: 'WEB_AUTHN' },
    });
    const parameters = (started.ChallengeParameters ?? {}) as Record<string, string | undefined>;
    const requestOptions = parameters.CREDENTIAL_REQUEST_OPTIONS;
    if (started.ChallengeName !== 'WEB_AUTHN' || !requestOptions)
      throw new AuthError(NO_PASSKEY_MESSAGE, NO_PASSKEY_CODE);
    const credential = await sign(requestOptions);
    // The tokens are kept under the name Cognito gives the account (its sub), as after SRP.
    internals.username = parameters.USERNAME ?? email;
    const answered = await libraryRequest(internals, 'RespondToAuthChallenge', {
      ChallengeName: 'WEB_AUTHN',
      ClientId: clientId,
      Session: started.Session,
      ChallengeResponses: { USERNAME: internals.username, CREDENTIAL: JSON.stringify(credential) },
    });
    const result = await service.continueSignIn(user, answered);
    notePasskeyUse(result, credential.id, accountUrl);
    return result;
  } catch (error) {
    service.cancelSignIn();
    throw error instanceof AuthError || (error instanceof Error && error.name === 'PasskeyError')
      ? error
      : toAuthError(error);
  }
}

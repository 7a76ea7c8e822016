import { AuthenticationDetails, CognitoUserPool, type CognitoUserSession } from 'amazon-cognito-identity-js';
import type { DemoAccount, StackInfo } from '#clients/local-stack.ts';
import { memoryStorage, userFor } from '#clients/cognito.ts';
import { unusedTotpCode } from './unused-totp-codes.ts';

export interface SessionTokens {
  readonly accessToken: string;
  readonly idToken: string;
  readonly refreshToken: string;
  /**
   * The device the sign-in was made on (the library confirmed it), where the pool tracks
   * devices: a refresh must name it (DEVICE_KEY).
   */
  readonly deviceKey?: string;
}

/**
 * Signs an account with an authenticator in outside the browser, exactly as the SPA does:
 * the unmodified amazon-cognito-identity-js, SRP, then the TOTP code, from a step not used
 * before in this run for the account (support/unused-totp-codes.ts). A refused code fails the sign-in.
 */
export function signInWithSrp(stack: StackInfo, account: DemoAccount): Promise<SessionTokens> {
  const pool = new CognitoUserPool({
    UserPoolId: stack.cognito.userPoolId,
    ClientId: stack.cognito.clientId,
    endpoint: stack.cognito.endpoint,
    Storage: memoryStorage(),
  });
  const user = userFor(pool, account.email);
  return new Promise((resolve, reject) => {
    const onSuccess = (session: CognitoUserSession) => {
      const deviceKey = (user as unknown as { deviceKey?: string | null }).deviceKey ?? undefined;
      resolve({
        accessToken: session.getAccessToken().getJwtToken(),
        idToken: session.getIdToken().getJwtToken(),
        refreshToken: session.getRefreshToken().getToken(),
        ...(deviceKey ? { deviceKey } : {}),
      });
    };
    const sendCode = async () => {
      const code = await unusedTotpCode(account.totpSecret, account.email);
      const sentAt = new Date().toISOString();
      user.sendMFACode(
        code,
        {
          onSuccess,
          onFailure: (error: Error) =>
            reject(
              new Error(
                `${account.email}: the authenticator code sent at ${sentAt}, from a 30-second step not used before in this run, was refused: ${error.message}`,
              ),
            ),
        },
        'SOFTWARE_TOKEN_MFA',
      );
    };
    user.authenticateUser(new AuthenticationDetails({ Username: account.email, Password: account.password }), {
      onSuccess,
      onFailure: reject,
      totpRequired: () => void sendCode().catch(reject),
      mfaSetup: () => reject(new Error(`${account.email} has no authenticator enrolled`)),
      newPasswordRequired: () => reject(new Error(`${account.email} must set a new password first`)),
    });
  });
}

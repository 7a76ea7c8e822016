import { AuthenticationDetails, CognitoUserPool, type CognitoUserSession } from 'amazon-cognito-identity-js';
import type { DemoAccount, StackInfo } from '../../../local/stack-info.ts';
import { memoryStorage, userFor } from '../../local/support/cognito-client.ts';
import { nextTotpStep, unusedTotpCode } from './totp.ts';

export interface SessionTokens {
  readonly accessToken: string;
  readonly idToken: string;
  readonly refreshToken: string;
}

const ATTEMPTS = 3;

/**
 * Signs an account with an authenticator in outside the browser, exactly as the SPA does:
 * the unmodified amazon-cognito-identity-js, SRP, then the TOTP code. A code refused as
 * already used (the seed or another sign-in took this step) is retried in the next step.
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
    let attempt = 0;
    const onSuccess = (session: CognitoUserSession) =>
      resolve({
        accessToken: session.getAccessToken().getJwtToken(),
        idToken: session.getIdToken().getJwtToken(),
        refreshToken: session.getRefreshToken().getToken(),
      });
    const sendCode = async () => {
      attempt += 1;
      user.sendMFACode(
        await unusedTotpCode(account.totpSecret),
        {
          onSuccess,
          onFailure: (error: Error) => {
            if (attempt >= ATTEMPTS) reject(error);
            else void nextTotpStep().then(sendCode, reject);
          },
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

import {
  AdminAddUserToGroupCommand,
  AdminCreateUserCommand,
  AdminSetUserPasswordCommand,
  AssociateSoftwareTokenCommand,
  CognitoIdentityProviderClient,
  InitiateAuthCommand,
  RespondToAuthChallengeCommand,
  UsernameExistsException,
  VerifySoftwareTokenCommand,
  type AuthenticationResultType,
} from '@aws-sdk/client-cognito-identity-provider';
import { currentTotpCode } from '../totp-code.ts';

export interface AccountToEnroll {
  readonly email: string;
  readonly password: string;
  readonly group: string;
}

export interface PoolContext {
  readonly client: CognitoIdentityProviderClient;
  readonly userPoolId: string;
  readonly clientId: string;
  /** The account's current authenticator secret, once it has one. */
  readonly readTotpSecret: (email: string) => Promise<string | undefined>;
}

/** Creates the account (confirmed, verified email, permanent password) in its group; an existing account is kept. */
export async function ensureAccount(pool: PoolContext, account: AccountToEnroll): Promise<void> {
  try {
    await pool.client.send(
      new AdminCreateUserCommand({
        UserPoolId: pool.userPoolId,
        Username: account.email,
        UserAttributes: [
          { Name: 'email', Value: account.email },
          { Name: 'email_verified', Value: 'true' },
        ],
        MessageAction: 'SUPPRESS',
      }),
    );
  } catch (error) {
    if (!(error instanceof UsernameExistsException)) throw error;
  }
  await pool.client.send(
    new AdminSetUserPasswordCommand({ UserPoolId: pool.userPoolId, Username: account.email, Password: account.password, Permanent: true }),
  );
  await pool.client.send(new AdminAddUserToGroupCommand({ UserPoolId: pool.userPoolId, Username: account.email, GroupName: account.group }));
}

function tokensOf(result: AuthenticationResultType | undefined, email: string): AuthenticationResultType {
  if (!result?.AccessToken) throw new Error(`Signing ${email} in returned no tokens`);
  return result;
}

/**
 * Signs the account in through the protocol a person's first sign-in takes: password, then
 * the MFA_SETUP challenge with an authenticator enrolled on the challenge session
 * (AssociateSoftwareToken, VerifySoftwareToken), so the secret is known to local mode. An
 * account that already has an authenticator answers SOFTWARE_TOKEN_MFA with its code.
 */
export async function signInWithAuthenticator(pool: PoolContext, account: AccountToEnroll): Promise<AuthenticationResultType> {
  const { client, clientId } = pool;
  const started = await client.send(
    new InitiateAuthCommand({
      AuthFlow: 'USER_PASSWORD_AUTH',
      ClientId: clientId,
      AuthParameters: { USERNAME: account.email, PASSWORD: account.password },
    }),
  );
  const username = started.ChallengeParameters?.USER_ID_FOR_SRP ?? account.email;

  if (started.ChallengeName === 'MFA_SETUP') {
    const associated = await client.send(new AssociateSoftwareTokenCommand({ Session: started.Session }));
    if (!associated.SecretCode) throw new Error(`No authenticator secret was issued for ${account.email}`);
    const verified = await client.send(
      new VerifySoftwareTokenCommand({ Session: associated.Session, UserCode: currentTotpCode(associated.SecretCode), FriendlyDeviceName: 'Local mode seed' }),
    );
    if (verified.Status !== 'SUCCESS') throw new Error(`The authenticator of ${account.email} was not verified`);
    const done = await client.send(
      new RespondToAuthChallengeCommand({ ClientId: clientId, ChallengeName: 'MFA_SETUP', Session: verified.Session, ChallengeResponses: { USERNAME: username } }),
    );
    return tokensOf(done.AuthenticationResult, account.email);
  }

  if (started.ChallengeName === 'SOFTWARE_TOKEN_MFA') {
    const secret = await pool.readTotpSecret(account.email);
    if (!secret) throw new Error(`${account.email} asks for an authenticator code but local mode does not know its secret`);
    const done = await client.send(
      new RespondToAuthChallengeCommand({
        ClientId: clientId,
        ChallengeName: 'SOFTWARE_TOKEN_MFA',
        Session: started.Session,
        ChallengeResponses: { USERNAME: username, SOFTWARE_TOKEN_MFA_CODE: currentTotpCode(secret) },
      }),
    );
    return tokensOf(done.AuthenticationResult, account.email);
  }

  throw new Error(`Unexpected sign-in step for ${account.email}: ${started.ChallengeName ?? 'no challenge'}`);
}

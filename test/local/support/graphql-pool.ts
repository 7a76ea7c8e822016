import { exportJWK, generateKeyPair, SignJWT, type JWK } from 'jose';

/**
 * A user pool for the local GraphQL server's tests: its ids, a signing key with the key set the
 * server checks tokens against, the pool tokens it signs, and the server options built on them.
 */
const POOL_ID = 'us-east-2_AbCdEf123';
const CLIENT_ID = 'localclient123';
export const ISSUER = `https://cognito-idp.us-east-2.amazonaws.com/${POOL_ID}`;
const KEY_ID = 'pool-key';

export type SigningKey = Awaited<ReturnType<typeof generateKeyPair>>['privateKey'];
export interface PoolKeys {
  readonly privateKey: SigningKey;
  readonly jwks: { keys: JWK[] };
}

export async function poolKeys(): Promise<PoolKeys> {
  const { privateKey, publicKey } = await generateKeyPair('RS256');
  return { privateKey, jwks: { keys: [{ ...(await exportJWK(publicKey)), kid: KEY_ID, alg: 'RS256', use: 'sig' }] } };
}

export interface TokenOptions {
  readonly use?: 'access' | 'id';
  readonly groups?: string[];
  readonly clientId?: string;
  readonly expiresIn?: string;
}

/** An access or ID token of the pool's user `user-uuid`, signed with `key`. */
export function signPoolToken(
  key: SigningKey,
  { use = 'access', groups = ['Users'], clientId = CLIENT_ID, expiresIn = '1h' }: TokenOptions = {},
): Promise<string> {
  const claims =
    use === 'access'
      ? {
          token_use: 'access',
          client_id: clientId,
          username: 'user-uuid',
          'cognito:groups': groups,
          scope: 'aws.cognito.signin.user.admin',
        }
      : {
          token_use: 'id',
          aud: clientId,
          'cognito:username': 'user-uuid',
          email: 'someone@example.com',
          'cognito:groups': groups,
        };
  return new SignJWT(claims)
    .setProtectedHeader({ alg: 'RS256', kid: KEY_ID })
    .setSubject('user-uuid')
    .setIssuer(ISSUER)
    .setIssuedAt()
    .setExpirationTime(expiresIn)
    .sign(key);
}

/** What every test server shares besides its schema and handler: the pool and a port of its own. */
export const poolServerOptions = (jwks: { keys: JWK[] }) => ({
  userPoolId: POOL_ID,
  clientId: CLIENT_ID,
  jwks,
  host: '127.0.0.1',
  port: 0,
  region: 'us-east-2',
});

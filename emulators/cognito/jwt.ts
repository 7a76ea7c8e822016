import {
  createHash,
  createPrivateKey,
  createPublicKey,
  generateKeyPairSync,
  sign,
  verify,
  type KeyObject,
} from 'node:crypto';

/** RS256 JSON Web Tokens signed with the pool's key, as Cognito issues them. */

export interface PublicJwk {
  alg: 'RS256';
  e: string;
  kid: string;
  kty: 'RSA';
  n: string;
  use: 'sig';
}

export interface SigningKey {
  kid: string;
  privateKey: KeyObject;
  publicKey: KeyObject;
  jwk: PublicJwk;
}

/** A new 2048-bit RSA key, generated once per pool and kept with its state. */
export function generateSigningKey(): { kid: string; privateKeyPem: string } {
  const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const kid = createHash('sha256')
    .update(publicKey.export({ type: 'spki', format: 'der' }))
    .digest('base64');
  return { kid, privateKeyPem: privateKey.export({ type: 'pkcs8', format: 'pem' }).toString() };
}

export function loadSigningKey(stored: { kid: string; privateKeyPem: string }): SigningKey {
  const privateKey = createPrivateKey(stored.privateKeyPem);
  const publicKey = createPublicKey(privateKey);
  const { n, e } = publicKey.export({ format: 'jwk' });
  if (!n || !e) throw new Error('The pool signing key is not an RSA key');
  return {
    kid: stored.kid,
    privateKey,
    publicKey,
    jwk: { alg: 'RS256', e, kid: stored.kid, kty: 'RSA', n, use: 'sig' },
  };
}

const base64url = (value: Buffer | string) => Buffer.from(value).toString('base64url');

export function signJwt(key: SigningKey, payload: Record<string, unknown>): string {
  const signingInput = `${base64url(JSON.stringify({ kid: key.kid, alg: 'RS256' }))}.${base64url(JSON.stringify(payload))}`;
  const signature = sign('sha256', Buffer.from(signingInput), key.privateKey);
  return `${signingInput}.${base64url(signature)}`;
}

/**
 * The payload of a token signed by this key with RS256; undefined for anything else
 * (another key, `alg: none`, a tampered header or payload, not a JWT at all).
 */
export function verifyJwt(key: SigningKey, token: string): Record<string, unknown> | undefined {
  const parts = token.split('.');
  if (parts.length !== 3) return undefined;
  const [encodedHeader = '', encodedPayload = '', encodedSignature = ''] = parts;
  const header = decodeJson(encodedHeader);
  if (!header || header.alg !== 'RS256' || header.kid !== key.kid) return undefined;
  const signature = Buffer.from(encodedSignature, 'base64url');
  if (!verify('sha256', Buffer.from(`${encodedHeader}.${encodedPayload}`), key.publicKey, signature)) return undefined;
  return decodeJson(encodedPayload);
}

function decodeJson(segment: string): Record<string, unknown> | undefined {
  try {
    const value: unknown = JSON.parse(Buffer.from(segment, 'base64url').toString('utf8'));
    return typeof value === 'object' && value !== null && !Array.isArray(value)
      ? (value as Record<string, unknown>)
      : undefined;
  } catch {
    return undefined;
  }
}

import { createDiffieHellman, createHash, createHmac, randomBytes, timingSafeEqual } from 'node:crypto';

/**
 * The server side of Cognito's SRP-6a, byte-compatible with amazon-cognito-identity-js:
 * 3072-bit group of RFC 5054, g = 2, SHA-256, k = H(N | g), u = H(A | B) over the
 * library's two's-complement hex encoding, x = H(salt | H(poolName userId ":" password)),
 * the session key derived with HKDF ("Caldera Derived Key"), and the PASSWORD_VERIFIER
 * claim signed with HMAC-SHA256 over poolName | userId | secret block | timestamp.
 */

const N = BigInt(
  '0xFFFFFFFFFFFFFFFFC90FDAA22168C234C4C6628B80DC1CD129024E088A67CC74020BBEA63B139B22514A08798E3404DD' +
    'EF9519B3CD3A431B302B0A6DF25F14374FE1356D6D51C245E485B576625E7EC6F44C42E9A637ED6B0BFF5CB6F406B7ED' +
    'EE386BFB5A899FA5AE9F24117C4B1FE649286651ECE45B3DC2007CB8A163BF0598DA48361C55D39A69163FA8FD24CF5F' +
    '83655D23DCA3AD961C62F356208552BB9ED529077096966D670C354E4ABC9804F1746C08CA18217C32905E462E36CE3B' +
    'E39E772C180E86039B2783A2EC07A28FB5C55DF06F4C52C9DE2BCBF6955817183995497CEA956AE515D2261898FA0510' +
    '15728E5A8AAAC42DAD33170D04507A33A85521ABDF1CBA64ECFB850458DBEF0A8AEA71575D060C7DB3970F85A6E1E4C7' +
    'ABF5AE8CDB0933D71E8C94E04A25619DCEE3D2261AD2EE6BF12FFA06D98A0864D87602733EC86A64521F2B18177B200C' +
    'BBE117577A615D6C770988C0BAD946E208E24FA074E5AB3143DB5BFCE0FD108E4B82D120A93AD2CAFFFFFFFFFFFFFFFF',
);
const g = 2n;
const N_BYTES = bigIntToBytes(N);

/** Even-length hex with a leading 00 when the top bit is set (Java's BigInteger.toByteArray). */
export function padHex(value: bigint): string {
  const hex = value.toString(16);
  const even = hex.length % 2 === 0 ? hex : `0${hex}`;
  return /^[89a-f]/i.test(even) ? `00${even}` : even;
}

const sha256Hex = (data: Buffer | string) => createHash('sha256').update(data).digest('hex');
const hexHash = (hex: string) => sha256Hex(Buffer.from(hex, 'hex'));
const hexToBigInt = (hex: string) => BigInt(`0x${hex}`);

const k = hexToBigInt(hexHash(`${padHex(N)}${padHex(g)}`));

function bigIntToBytes(value: bigint): Buffer {
  const hex = value.toString(16);
  return Buffer.from(hex.length % 2 === 0 ? hex : `0${hex}`, 'hex');
}

/**
 * base^exponent mod N with OpenSSL's constant-time exponentiation, reached through the
 * Diffie-Hellman primitive (computeSecret(base) is base^privateKey mod prime): six times
 * faster than a BigInt square-and-multiply, which matters when 10,000 accounts are seeded.
 * OpenSSL refuses the trivial bases 0, 1 and N-1, whose powers are known anyway.
 */
function modPow(base: bigint, exponent: bigint): bigint {
  const reduced = ((base % N) + N) % N;
  if (exponent === 0n) return 1n;
  if (reduced === 0n || reduced === 1n) return reduced;
  if (reduced === N - 1n) return exponent % 2n === 0n ? 1n : reduced;
  const dh = createDiffieHellman(N_BYTES, bigIntToBytes(g));
  dh.setPrivateKey(bigIntToBytes(exponent));
  const result = reduced === g ? dh.generateKeys() : dh.computeSecret(bigIntToBytes(reduced));
  return BigInt(`0x${result.toString('hex')}`);
}

function privateValueX(saltHex: string, poolName: string, userId: string, password: string): bigint {
  const identityHash = sha256Hex(`${poolName}${userId}:${password}`);
  return hexToBigInt(hexHash(`${padHex(hexToBigInt(saltHex))}${identityHash}`));
}

export interface PasswordVerifier {
  /** Hex, sent to the client as SALT. */
  salt: string;
  /** Hex of g^x mod N. */
  verifier: string;
}

/** Computed when a password is set; the password itself is never stored. */
export function createVerifier(poolName: string, userId: string, password: string): PasswordVerifier {
  const salt = randomBytes(16).toString('hex');
  const verifier = modPow(g, privateValueX(salt, poolName, userId, password)).toString(16);
  return { salt, verifier };
}

/** USER_PASSWORD_AUTH and ChangePassword: recompute the verifier and compare. */
export function passwordMatches(record: PasswordVerifier, poolName: string, userId: string, password: string): boolean {
  const candidate = modPow(g, privateValueX(record.salt, poolName, userId, password));
  return constantTimeEqual(bigIntToBytes(candidate), bigIntToBytes(hexToBigInt(record.verifier)));
}

export interface ServerChallenge {
  /** Server secret b (hex); kept server-side only. */
  b: string;
  /** Server public value B (hex), sent as SRP_B. */
  B: string;
}

/** B = k*v + g^b mod N, never 0 mod N. */
export function createServerChallenge(verifierHex: string): ServerChallenge {
  const v = hexToBigInt(verifierHex);
  for (;;) {
    const b = hexToBigInt(randomBytes(128).toString('hex'));
    const B = (k * v + modPow(g, b)) % N;
    if (b !== 0n && B !== 0n) return { b: b.toString(16), B: B.toString(16) };
  }
}

/** A fresh verifier for an account that does not exist, so its challenge looks like a real one. */
export function decoyVerifier(): string {
  return modPow(g, hexToBigInt(randomBytes(32).toString('hex'))).toString(16);
}

/** SRP_A as the client sends it: hex, not 0 mod N. */
export function parseClientPublicValue(srpA: string): bigint | undefined {
  if (!/^[0-9a-fA-F]{1,1600}$/.test(srpA)) return undefined;
  const A = hexToBigInt(srpA);
  return A % N === 0n ? undefined : A;
}

export interface PasswordClaim {
  poolName: string;
  userId: string;
  verifier: string;
  A: bigint;
  challenge: ServerChallenge;
  secretBlock: string;
  timestamp: string;
  signature: string;
}

/** Checks PASSWORD_CLAIM_SIGNATURE: proof that the client derived the same session key. */
export function passwordClaimIsValid(claim: PasswordClaim): boolean {
  const B = hexToBigInt(claim.challenge.B);
  const u = hexToBigInt(hexHash(`${padHex(claim.A)}${padHex(B)}`));
  if (u === 0n) return false;
  const v = hexToBigInt(claim.verifier);
  const S = modPow((claim.A * modPow(v, u)) % N, hexToBigInt(claim.challenge.b));
  const key = sessionKey(Buffer.from(padHex(S), 'hex'), Buffer.from(padHex(u), 'hex'));
  const expected = createHmac('sha256', key)
    .update(
      Buffer.concat([
        Buffer.from(claim.poolName, 'utf8'),
        Buffer.from(claim.userId, 'utf8'),
        Buffer.from(claim.secretBlock, 'base64'),
        Buffer.from(claim.timestamp, 'utf8'),
      ]),
    )
    .digest();
  return constantTimeEqual(expected, Buffer.from(claim.signature, 'base64'));
}

/** HKDF-SHA256 with the library's info string, first 16 bytes of the first block. */
function sessionKey(ikm: Buffer, salt: Buffer): Buffer {
  const prk = createHmac('sha256', salt).update(ikm).digest();
  return createHmac('sha256', prk)
    .update(Buffer.concat([Buffer.from('Caldera Derived Key', 'utf8'), Buffer.from([1])]))
    .digest()
    .subarray(0, 16);
}

function constantTimeEqual(a: Buffer, b: Buffer): boolean {
  return a.length === b.length && timingSafeEqual(a, b);
}

/** The library's "ddd MMM D HH:mm:ss UTC YYYY" timestamp. */
export const SRP_TIMESTAMP =
  /^(Sun|Mon|Tue|Wed|Thu|Fri|Sat) (Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec) ([1-9]|[12]\d|3[01]) ([01]\d|2[0-3]):[0-5]\d:[0-5]\d UTC \d{4}$/;

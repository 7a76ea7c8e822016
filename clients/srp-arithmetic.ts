import { createDiffieHellman } from 'node:crypto';
import { createRequire } from 'node:module';

/**
 * amazon-cognito-identity-js computes SRP's modular powers with its own JavaScript big integers
 * (a copy of jsbn): about 180 ms of processor time per password sign-in in Node, and as much
 * again for each device step. In Node the same powers come from OpenSSL through the
 * Diffie-Hellman primitive (computeSecret(base) is base^privateKey mod prime), in a few
 * milliseconds. Importing this module puts that arithmetic under the library's BigInteger for
 * the one modulus SRP uses, the 3072-bit prime of RFC 5054; the library's protocol code, its
 * messages and its results are unchanged, and any other modulus keeps the library's own code.
 * test/local/srp-arithmetic.test.ts checks both give the same numbers.
 */

/** The RFC 5054 3072-bit group prime, as the library writes it (lower-case hex). */
export const SRP_PRIME_HEX =
  'ffffffffffffffffc90fdaa22168c234c4c6628b80dc1cd129024e088a67cc74020bbea63b139b22514a08798e3404dd' +
  'ef9519b3cd3a431b302b0a6df25f14374fe1356d6d51c245e485b576625e7ec6f44c42e9a637ed6b0bff5cb6f406b7ed' +
  'ee386bfb5a899fa5ae9f24117c4b1fe649286651ece45b3dc2007cb8a163bf0598da48361c55d39a69163fa8fd24cf5f' +
  '83655d23dca3ad961c62f356208552bb9ed529077096966d670c354e4abc9804f1746c08ca18217c32905e462e36ce3b' +
  'e39e772c180e86039b2783a2ec07a28fb5c55df06f4c52c9de2bcbf6955817183995497cea956ae515d2261898fa0510' +
  '15728e5a8aaac42dad33170d04507a33a85521abdf1cba64ecfb850458dbef0a8aea71575d060c7db3970f85a6e1e4c7' +
  'abf5ae8cdb0933d71e8c94e04a25619dcee3d2261ad2ee6bf12ffa06d98a0864d87602733ec86a64521f2b18177b200c' +
  'bbe117577a615d6c770988c0bad946e208e24fa074e5ab3143db5bfce0fd108e4b82d120a93ad2caffffffffffffffff';

/** The part of the library's jsbn BigInteger this module uses. */
interface LibraryBigInteger {
  toString(radix: number): string;
  modPow(exponent: LibraryBigInteger, modulus: LibraryBigInteger, callback: ModPowCallback): LibraryBigInteger;
}
type ModPowCallback = (error: Error | null, result: LibraryBigInteger) => void;
interface LibraryBigIntegerClass {
  new (text: string, radix: number): LibraryBigInteger;
  prototype: LibraryBigInteger & { modPowInJavaScript?: LibraryBigInteger['modPow'] };
}

const prime = BigInt(`0x${SRP_PRIME_HEX}`);
const primeBytes = Buffer.from(SRP_PRIME_HEX, 'hex');

const toBytes = (value: bigint) => {
  const hex = value.toString(16);
  return Buffer.from(hex.length % 2 === 0 ? hex : `0${hex}`, 'hex');
};

/**
 * base^exponent mod the SRP prime, for a non-negative exponent. OpenSSL refuses the trivial
 * bases 0, 1 and prime-1 as a peer's key; their powers are known anyway.
 */
export function srpModPow(base: bigint, exponent: bigint): bigint {
  const reduced = ((base % prime) + prime) % prime;
  if (exponent === 0n) return 1n;
  if (reduced === 0n || reduced === 1n) return reduced;
  if (reduced === prime - 1n) return exponent % 2n === 0n ? 1n : reduced;
  const dh = createDiffieHellman(primeBytes, Buffer.from([2]));
  dh.setPrivateKey(toBytes(exponent));
  return BigInt(`0x${dh.computeSecret(toBytes(reduced)).toString('hex')}`);
}

/** The library's own BigInteger class: the one its AuthenticationHelper requires. */
export function libraryBigInteger(): LibraryBigIntegerClass {
  const required = createRequire(import.meta.url)('amazon-cognito-identity-js/lib/BigInteger.js') as {
    default: LibraryBigIntegerClass;
  };
  return required.default;
}

const fromLibrary = (value: LibraryBigInteger) => {
  const hex = value.toString(16);
  return hex.startsWith('-') ? -BigInt(`0x${hex.slice(1)}`) : BigInt(`0x${hex}`);
};

const BigInteger = libraryBigInteger();
if (!BigInteger.prototype.modPowInJavaScript) {
  const inJavaScript = BigInteger.prototype.modPow;
  BigInteger.prototype.modPowInJavaScript = inJavaScript;
  BigInteger.prototype.modPow = function modPow(this: LibraryBigInteger, exponent, modulus, callback) {
    const power = fromLibrary(exponent);
    if (modulus.toString(16) !== SRP_PRIME_HEX || power < 0n)
      return inJavaScript.call(this, exponent, modulus, callback);
    const result = new BigInteger(srpModPow(fromLibrary(this), power).toString(16), 16);
    callback(null, result);
    return result;
  };
}

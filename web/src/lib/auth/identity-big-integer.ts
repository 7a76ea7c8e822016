/**
 * The BigInteger of amazon-cognito-identity-js (a cut-down jsbn: `new BigInteger(text, radix)`,
 * toString, abs, negate, compareTo, equals, add, subtract, multiply, mod, and modPow with a
 * Node-style callback) on the browser's native BigInt. The build puts it in place of the
 * library's own copy (web/vite.config.ts), which is about 4 KB gzip of the sign-in page's
 * script budget; test/web/identity-big-integer.test.ts checks it against that copy.
 */

const RADIX_PREFIX: Readonly<Record<number, string>> = { 2: '0b', 8: '0o', 16: '0x' };

function parse(text: string, radix: number): bigint {
  const prefix = RADIX_PREFIX[radix];
  if (prefix === undefined) throw new Error('Only radix 2, 8 and 16 are supported');
  const negative = text.startsWith('-');
  const digits = negative ? text.slice(1) : text;
  const value = digits === '' ? 0n : BigInt(`${prefix}${digits}`);
  return negative ? -value : value;
}

/** jsbn's mod: the result has the sign of the modulus (never negative for a positive one). */
const mod = (value: bigint, modulus: bigint) => ((value % modulus) + modulus) % modulus;

export default class BigInteger {
  static readonly ZERO = new BigInteger(0n);
  static readonly ONE = new BigInteger(1n);

  private readonly value: bigint;

  constructor(value: string | bigint, radix = 10) {
    this.value = typeof value === 'bigint' ? value : radix === 10 ? BigInt(value) : parse(value, radix);
  }

  toString(radix = 10): string {
    return this.value.toString(radix);
  }

  abs(): BigInteger {
    return this.value < 0n ? new BigInteger(-this.value) : this;
  }

  negate(): BigInteger {
    return new BigInteger(-this.value);
  }

  compareTo(other: BigInteger): number {
    return this.value === other.value ? 0 : this.value < other.value ? -1 : 1;
  }

  equals(other: BigInteger): boolean {
    return this.value === other.value;
  }

  add(other: BigInteger): BigInteger {
    return new BigInteger(this.value + other.value);
  }

  subtract(other: BigInteger): BigInteger {
    return new BigInteger(this.value - other.value);
  }

  multiply(other: BigInteger): BigInteger {
    return new BigInteger(this.value * other.value);
  }

  mod(modulus: BigInteger): BigInteger {
    return new BigInteger(mod(this.value, modulus.value));
  }

  /** this^exponent mod modulus by square-and-multiply, answered through the callback as the library expects. */
  modPow(exponent: BigInteger, modulus: BigInteger, callback: (error: Error | null, result: BigInteger) => void): void {
    const m = modulus.value;
    let base = mod(this.value, m);
    let e = exponent.value;
    let result = 1n % m;
    while (e > 0n) {
      if (e & 1n) result = (result * base) % m;
      base = (base * base) % m;
      e >>= 1n;
    }
    callback(null, new BigInteger(result));
  }
}

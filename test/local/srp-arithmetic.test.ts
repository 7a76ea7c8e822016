import { randomBytes } from 'node:crypto';
import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';
import { libraryBigInteger, SRP_PRIME_HEX, srpModPow } from '#clients/srp-arithmetic.ts';

const BigInteger = libraryBigInteger();
type Library = InstanceType<typeof BigInteger>;
/** The library's SRP client steps (not in its type declarations). */
const { default: AuthenticationHelper } = createRequire(import.meta.url)(
  'amazon-cognito-identity-js/lib/AuthenticationHelper.js',
) as {
  default: new (poolName: string) => {
    smallAValue: Library;
    getLargeAValue(callback: (error: unknown, value: Library) => void): void;
  };
};
const hex = (bytes: number) => randomBytes(bytes).toString('hex');
const N = new BigInteger(SRP_PRIME_HEX, 16);

/** The library's own jsbn power, kept by the module beside the OpenSSL one. */
function inJavaScript(base: Library, exponent: Library, modulus: Library): string {
  const original = (BigInteger.prototype as unknown as { modPowInJavaScript: Library['modPow'] }).modPowInJavaScript;
  let answer = '';
  original.call(base, exponent, modulus, (error, result) => {
    if (error) throw error;
    answer = result.toString(16);
  });
  return answer;
}

function installed(base: Library, exponent: Library, modulus: Library): string {
  let answer = '';
  const returned = base.modPow(exponent, modulus, (error, result) => {
    if (error) throw error;
    answer = result.toString(16);
  });
  expect(returned.toString(16)).toBe(answer);
  return answer;
}

describe("the library's SRP powers on OpenSSL", () => {
  it('give the numbers the library computes itself, for the sizes SRP uses', () => {
    const prototype = BigInteger.prototype as unknown as { modPow: unknown; modPowInJavaScript: unknown };
    expect(prototype.modPow).not.toBe(prototype.modPowInJavaScript);
    for (const [baseBytes, exponentBytes] of [
      [1, 32],
      [384, 128],
      [384, 161],
      [400, 32],
      [200, 384],
    ] as const) {
      const base = new BigInteger(hex(baseBytes), 16);
      const exponent = new BigInteger(hex(exponentBytes), 16);
      expect(installed(base, exponent, N)).toBe(inJavaScript(base, exponent, N));
    }
  });

  it('answer the trivial bases OpenSSL refuses as a key (0, 1, N-1, N) and the exponent 0', () => {
    const prime = BigInt(`0x${SRP_PRIME_HEX}`);
    expect(srpModPow(0n, 5n)).toBe(0n);
    expect(srpModPow(1n, 5n)).toBe(1n);
    expect(srpModPow(prime, 7n)).toBe(0n);
    expect(srpModPow(prime - 1n, 2n)).toBe(1n);
    expect(srpModPow(prime - 1n, 3n)).toBe(prime - 1n);
    expect(srpModPow(12345n, 0n)).toBe(1n);
    expect(srpModPow(-2n, 3n)).toBe(prime - 8n);
    expect(srpModPow(3n, 4n)).toBe(81n);
  });

  it('leave any other modulus to the library', () => {
    const modulus = new BigInteger('f1', 16); // 241, not the SRP prime
    const base = new BigInteger('1234567', 16);
    const exponent = new BigInteger('ab', 16);
    const expected = (0x1234567n ** 0xabn % 241n).toString(16);
    expect(installed(base, exponent, modulus)).toBe(expected);
  });

  it("serve the library's own sign-in step: A = g^a as its own arithmetic gives it", async () => {
    const helper = new AuthenticationHelper('us-east-2_pool');
    const largeA = await new Promise<Library>((resolve, reject) =>
      helper.getLargeAValue((error, value) => (error ? reject(error) : resolve(value))),
    );
    expect(largeA.toString(16)).toBe(inJavaScript(new BigInteger('2', 16), helper.smallAValue, N));
  });
});

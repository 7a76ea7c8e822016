import { createHash, createHmac, randomBytes } from 'node:crypto';
import { Buffer as NodeBuffer } from 'node:buffer';
import { describe, expect, it } from 'vitest';
import BigInteger from '#web/lib/auth/identity-big-integer.ts';
import { Buffer } from '#web/lib/auth/identity-buffer.ts';
import { Sha256 } from '#web/lib/auth/identity-sha256.ts';

/**
 * The sign-in build puts these in place of the identity library's Buffer polyfill, its jsbn
 * BigInteger and @aws-crypto/sha256-js (web/vite.config.ts): each must answer exactly as the
 * original for every call the library makes.
 */

const samples = [0, 1, 2, 3, 16, 31, 55, 56, 63, 64, 65, 96, 127, 128, 129, 200].map((length) => randomBytes(length));

describe('the Buffer of the identity library', () => {
  it.each(samples.map((bytes) => [bytes.length, bytes] as const))(
    'encodes and decodes %i bytes as Node does',
    (_length, bytes) => {
      const ours = Buffer.from(bytes);
      for (const encoding of ['hex', 'base64', 'utf8'] as const) {
        expect(ours.toString(encoding)).toBe(NodeBuffer.from(bytes).toString(encoding));
      }
      expect([...Buffer.from(bytes.toString('hex'), 'hex')]).toEqual([...bytes]);
      expect([...Buffer.from(bytes.toString('base64'), 'base64')]).toEqual([...bytes]);
      // JWT segments: URL-safe alphabet without padding, as Node accepts them.
      expect([...Buffer.from(bytes.toString('base64url'), 'base64')]).toEqual([...bytes]);
    },
  );

  it('encodes text as UTF-8, joins buffers and copies what it is given', () => {
    const text = 'Caldera Derived Key \u00e9\u{1F600}';
    expect([...Buffer.from(text, 'utf8')]).toEqual([...NodeBuffer.from(text, 'utf8')]);
    expect(Buffer.from(text).toString()).toBe(text);
    const joined = Buffer.concat([Buffer.from('ab'), Uint8Array.of(1, 2), Buffer.from('00ff', 'hex')]);
    expect([...joined]).toEqual([97, 98, 1, 2, 0, 255]);
    const source = Uint8Array.of(1, 2, 3);
    const copy = Buffer.from(source);
    source[0] = 9;
    expect(copy[0]).toBe(1);
    expect(Buffer.isBuffer(copy)).toBe(true);
  });

  it('stops hex at the first pair that is not hex, as Node does', () => {
    for (const text of ['0a0bzz0c', 'abc', '']) {
      expect([...Buffer.from(text, 'hex')]).toEqual([...NodeBuffer.from(text, 'hex')]);
    }
  });
});

describe('the BigInteger of the identity library', () => {
  const N = BigInt(
    `0x${'FFFFFFFFFFFFFFFFC90FDAA22168C234C4C6628B80DC1CD129024E088A67CC74020BBEA63B139B22514A08798E3404DD'}`,
  );
  const hex = (bytes: number) => randomBytes(bytes).toString('hex');

  it('does the arithmetic the SRP proof uses, with jsbn signs and modulo', async () => {
    // The library's own jsbn copy, which the build replaces.
    const path = 'amazon-cognito-identity-js/es/BigInteger.js';
    const { default: Jsbn } = (await import(/* @vite-ignore */ path)) as { default: typeof BigInteger };
    const modulus = N.toString(16);
    for (let round = 0; round < 10; round += 1) {
      const [a, b, e] = [hex(48), hex(40), hex(32)];
      const ours = {
        a: new BigInteger(a, 16),
        b: new BigInteger(b, 16),
        e: new BigInteger(e, 16),
        m: new BigInteger(modulus, 16),
      };
      const theirs = { a: new Jsbn(a, 16), b: new Jsbn(b, 16), e: new Jsbn(e, 16), m: new Jsbn(modulus, 16) };
      const difference = [ours.b.subtract(ours.a), theirs.b.subtract(theirs.a)] as const;
      expect(difference[0].toString(16)).toBe(difference[1].toString(16));
      expect(difference[0].abs().toString(16)).toBe(difference[1].abs().toString(16));
      expect(difference[0].compareTo(BigInteger.ZERO)).toBe(Math.sign(difference[1].compareTo(Jsbn.ZERO)));
      expect(difference[0].mod(ours.m).toString(16)).toBe(difference[1].mod(theirs.m).toString(16));
      expect(ours.a.multiply(ours.b).add(BigInteger.ONE).toString(16)).toBe(
        theirs.a.multiply(theirs.b).add(Jsbn.ONE).toString(16),
      );
      const powers = await Promise.all(
        [
          [difference[0], ours.e, ours.m],
          [difference[1], theirs.e, theirs.m],
        ].map(
          ([base, exponent, m]) =>
            new Promise<string>((resolve, reject) =>
              (base as BigInteger).modPow(exponent as BigInteger, m as BigInteger, (error, result) =>
                error ? reject(error) : resolve(result.toString(16)),
              ),
            ),
        ),
      );
      expect(powers[0]).toBe(powers[1]);
      expect(ours.a.equals(new BigInteger(a, 16))).toBe(true);
    }
  });
});

describe('the Sha256 of the identity library', () => {
  it.each(samples.map((bytes) => [bytes.length, bytes] as const))(
    'hashes %i bytes as SHA-256 does',
    (_length, bytes) => {
      const hash = new Sha256();
      hash.update(bytes.subarray(0, 10));
      hash.update(bytes.subarray(10));
      expect(NodeBuffer.from(hash.digestSync()).toString('hex')).toBe(createHash('sha256').update(bytes).digest('hex'));
    },
  );

  it('computes HMAC-SHA256 with short and long keys, from bytes and text', async () => {
    for (const key of [randomBytes(16), randomBytes(64), randomBytes(100)]) {
      const data = randomBytes(77);
      const hmac = new Sha256(key);
      hmac.update(data);
      expect(NodeBuffer.from(hmac.digestSync()).toString('hex')).toBe(
        createHmac('sha256', key).update(data).digest('hex'),
      );
    }
    const text = new Sha256('key');
    text.update('user:pa\u00df');
    expect(NodeBuffer.from(await text.digest()).toString('hex')).toBe(
      createHmac('sha256', 'key').update('user:pa\u00df').digest('hex'),
    );
  });
});

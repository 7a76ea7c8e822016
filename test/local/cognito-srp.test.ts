import { createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import {
  createServerChallenge,
  createVerifier,
  padHex,
  parseClientPublicValue,
  passwordClaimIsValid,
  passwordMatches,
} from '#emulators/cognito/srp.ts';
import { AuthenticationHelper, BigInteger, DateHelper, type LibraryBigInteger } from './support/library-srp.ts';

const POOL_NAME = 'AbCdEf123';

/** One full PASSWORD_VERIFIER exchange: the library signs, the emulator checks. */
async function exchange(userId: string, storedPassword: string, typedPassword: string) {
  const record = createVerifier(POOL_NAME, userId, storedPassword);
  const helper = new AuthenticationHelper(POOL_NAME);
  const A = await new Promise<LibraryBigInteger>((resolve) => helper.getLargeAValue((_error, value) => resolve(value)));
  const challenge = createServerChallenge(record.verifier);
  const key = await new Promise<Buffer>((resolve) =>
    helper.getPasswordAuthenticationKey(
      userId,
      typedPassword,
      new BigInteger(challenge.B, 16),
      new BigInteger(record.salt, 16),
      (_error, value) => resolve(value),
    ),
  );
  const timestamp = new DateHelper().getNowString();
  const secretBlock = Buffer.from(`block-${userId}`).toString('base64');
  const signature = createHmac('sha256', key)
    .update(
      Buffer.concat([
        Buffer.from(POOL_NAME),
        Buffer.from(userId),
        Buffer.from(secretBlock, 'base64'),
        Buffer.from(timestamp),
      ]),
    )
    .digest('base64');
  return passwordClaimIsValid({
    poolName: POOL_NAME,
    userId,
    verifier: record.verifier,
    A: parseClientPublicValue(A.toString(16))!,
    challenge,
    secretBlock,
    timestamp,
    signature,
  });
}

describe('SRP-6a as amazon-cognito-identity-js computes it', () => {
  it('encodes integers as the library does (two-complement hex, even length)', () => {
    expect(padHex(20n)).toBe('14');
    expect(padHex(56n)).toBe('38');
    expect(padHex(200n)).toBe('00c8');
    expect(padHex(236n)).toBe('00ec');
    expect(padHex(0x1abcn)).toBe('1abc');
    expect(padHex(0xfabcn)).toBe('00fabc');
  });

  it('accepts the right password over many random salts, secrets and identities', async () => {
    const identities = ['1b0f6c3e-2f4a-4c1e-9d55-0f3c2b1a9e77', 'Ünïcødé-ユーザー', 'a'];
    for (let round = 0; round < 6; round += 1) {
      const userId = identities[round % identities.length]!;
      const password = `Pässwörd#${round}`;
      expect(await exchange(userId, password, password)).toBe(true);
    }
  });

  it('rejects a wrong password, even one that differs only in case', async () => {
    expect(await exchange('user-1', 'Right#Pass1', 'Wrong#Pass1')).toBe(false);
    expect(await exchange('user-1', 'Right#Pass1', 'right#Pass1')).toBe(false);
  });

  it('checks plain passwords against the stored verifier', () => {
    const record = createVerifier(POOL_NAME, 'user-2', 'Stored#Pass1');
    expect(record.salt).toMatch(/^[0-9a-f]{32}$/);
    expect(record).not.toHaveProperty('password');
    expect(passwordMatches(record, POOL_NAME, 'user-2', 'Stored#Pass1')).toBe(true);
    expect(passwordMatches(record, POOL_NAME, 'user-2', 'Stored#Pass2')).toBe(false);
    expect(passwordMatches(record, 'OtherPool', 'user-2', 'Stored#Pass1')).toBe(false);
  });

  it('refuses client values that are zero modulo N or not hex', () => {
    expect(parseClientPublicValue('0')).toBeUndefined();
    expect(parseClientPublicValue('xyz')).toBeUndefined();
    expect(parseClientPublicValue('02')).toBe(2n);
  });
});

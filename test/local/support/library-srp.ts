import { createRequire } from 'node:module';

/**
 * The SRP client half of amazon-cognito-identity-js, unmodified (its internals have no typings):
 * the tests of the emulator's SRP and of USER_AUTH's PASSWORD_SRP compute the client's values with it.
 */
export interface LibraryBigInteger {
  toString(radix: number): string;
}
export interface LibraryHelper {
  getLargeAValue(callback: (error: unknown, value: LibraryBigInteger) => void): void;
  getPasswordAuthenticationKey(
    username: string,
    password: string,
    serverB: LibraryBigInteger,
    salt: LibraryBigInteger,
    callback: (error: unknown, key: Buffer) => void,
  ): void;
}
const require = createRequire(import.meta.url);
export const AuthenticationHelper = require('amazon-cognito-identity-js/lib/AuthenticationHelper.js').default as new (
  pool: string,
) => LibraryHelper;
export const BigInteger = require('amazon-cognito-identity-js/lib/BigInteger.js').default as new (
  hex: string,
  radix: number,
) => LibraryBigInteger;
export const DateHelper = require('amazon-cognito-identity-js/lib/DateHelper.js').default as new () => {
  getNowString(): string;
};

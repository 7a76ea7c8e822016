import { describe, expect, it } from 'vitest';
import { isVerificationAccount } from '#contracts/verification.ts';

/** Which accounts the functions treat as npm run verify-deployment's (marks, support message to the sender). */
describe('verification accounts', () => {
  it.each([
    'portal-verify-mj3k2a1b-0f3c9a-admin@example.com',
    'portal-verify-mj3k2a1b-0f3c9a-user@example.com',
    'Portal-Verify-MJ3K2A1B-0F3C9A-User@Example.com',
  ])('recognises the accounts the tool makes: %s', (email) => expect(isVerificationAccount(email)).toBe(true));

  it.each([
    'portal-verify-mj3k2a1b-0f3c9a-admin@example.com.attacker.test',
    'portal-verify-mj3k2a1b-0f3c9a-admin@corp.example',
    'portal-verify-mj3k2a1b-0f3c9a-owner@example.com',
    'portal-verify-mj3k2a1b-admin@example.com',
    'x-portal-verify-mj3k2a1b-0f3c9a-admin@example.com',
    'someone@example.com',
  ])('does not take %s for one', (email) => expect(isVerificationAccount(email)).toBe(false));
});

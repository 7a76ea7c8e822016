/**
 * Cognito's own sender address for a pool's emails when the pool has no SES configuration
 * ("Email settings for Amazon Cognito user pools", default email). The Cognito emulator sends
 * from it, and the mail capture's Cognito sender falls back to it.
 */
export const COGNITO_DEFAULT_SENDER = 'no-reply@verificationemail.com';

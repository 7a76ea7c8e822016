import {
  AdminCreateUserCommand,
  AdminDeleteSoftwareTokenCommand,
  AdminDisableUserCommand,
  AdminSetUserMFAPreferenceCommand,
  SignUpCommand,
} from '@aws-sdk/client-cognito-identity-provider';
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import {
  answerNewPassword,
  answerTotp,
  associateSoftwareToken,
  authenticate,
  completeMfaSetup,
  setTotpPreference,
  userFor,
  verifySoftwareToken,
} from './support/cognito-client.ts';
import { createEnrolledUser, createUser, startHarness, type CognitoHarness } from './support/cognito-harness.ts';

let harness: CognitoHarness;
beforeAll(async () => {
  harness = await startHarness();
});
afterAll(() => harness.close());

const incorrect = { code: 'NotAuthorizedException', message: 'Incorrect username or password.' };

describe('SRP sign-in with required TOTP MFA (amazon-cognito-identity-js)', () => {
  it('asks a new account to set up an authenticator, then signs it in with tokens', async () => {
    const username = await createUser(harness, 'first.login@example.com', 'First#Login1', ['Users']);
    const user = userFor(harness.pool, 'first.login@example.com');
    expect(await authenticate(user, 'first.login@example.com', 'First#Login1')).toEqual({ step: 'MFA_SETUP' });
    // The library switched to the internal username Cognito answered as USER_ID_FOR_SRP.
    expect(user.getUsername()).toBe(username);
    const { secret, session } = await completeMfaSetup(user, (code) => harness.totp(code));
    expect(secret).toMatch(/^[A-Z2-7]{32}$/);
    expect(session.isValid()).toBe(true);
    expect(session.getAccessToken().payload).toMatchObject({
      username,
      token_use: 'access',
      'cognito:groups': ['Users'],
    });
  });

  it('asks an enrolled account for its code and refuses a wrong or reused one', async () => {
    const { secret } = await createEnrolledUser(harness, 'totp.user@example.com', 'Totp#User12');
    const user = userFor(harness.pool, 'totp.user@example.com');
    expect(await authenticate(user, 'totp.user@example.com', 'Totp#User12')).toEqual({ step: 'SOFTWARE_TOKEN_MFA' });
    const wrong = String((Number(harness.totp(secret)) + 1) % 1_000_000).padStart(6, '0');
    await expect(answerTotp(user, wrong)).rejects.toMatchObject({
      code: 'CodeMismatchException',
      message: 'Invalid code received for user',
    });
    const code = harness.totp(secret);
    const outcome = await answerTotp(user, code);
    expect(outcome.step).toBe('DONE');

    const again = userFor(harness.pool, 'totp.user@example.com');
    await authenticate(again, 'totp.user@example.com', 'Totp#User12');
    await expect(answerTotp(again, code)).rejects.toMatchObject({
      code: 'ExpiredCodeException',
      message: 'Your software token has already been used once.',
    });
    harness.advance(30_000);
    expect((await answerTotp(again, harness.totp(secret))).step).toBe('DONE');
  });

  it('refuses a wrong authenticator code during setup and accepts the right one afterwards', async () => {
    await createUser(harness, 'setup.retry@example.com', 'Setup#Retry1');
    const user = userFor(harness.pool, 'setup.retry@example.com');
    await authenticate(user, 'setup.retry@example.com', 'Setup#Retry1');
    const secret = await associateSoftwareToken(user);
    const wrong = String((Number(harness.totp(secret)) + 1) % 1_000_000).padStart(6, '0');
    await expect(verifySoftwareToken(user, wrong)).rejects.toMatchObject({
      code: 'EnableSoftwareTokenMFAException',
      message: 'Code mismatch and fail enable Software Token MFA',
    });
    const session = await verifySoftwareToken(user, harness.totp(secret));
    expect(session.isValid()).toBe(true);
  });

  it('keeps asking for the verified authenticator after its TOTP preference is disabled', async () => {
    const { secret } = await createEnrolledUser(harness, 'reset.mfa@example.com', 'Reset#Mfa12');
    await harness.admin.send(
      new AdminSetUserMFAPreferenceCommand({
        UserPoolId: harness.emulator.userPoolId,
        Username: 'reset.mfa@example.com',
        SoftwareTokenMfaSettings: { Enabled: false, PreferredMfa: false },
      }),
    );
    const user = userFor(harness.pool, 'reset.mfa@example.com');
    expect(await authenticate(user, 'reset.mfa@example.com', 'Reset#Mfa12')).toEqual({ step: 'SOFTWARE_TOKEN_MFA' });
    expect((await answerTotp(user, harness.totp(secret))).step).toBe('DONE');
  });

  it('sends a user whose software token an administrator deleted through setup again', async () => {
    await createEnrolledUser(harness, 'lost.phone@example.com', 'Lost#Phone1');
    await harness.admin.send(
      new AdminDeleteSoftwareTokenCommand({
        UserPoolId: harness.emulator.userPoolId,
        Username: 'lost.phone@example.com',
      }),
    );
    const user = userFor(harness.pool, 'lost.phone@example.com');
    expect(await authenticate(user, 'lost.phone@example.com', 'Lost#Phone1')).toEqual({ step: 'MFA_SETUP' });
    const { session } = await completeMfaSetup(user, (code) => harness.totp(code));
    await setTotpPreference(user, true);
    expect(session.isValid()).toBe(true);
  });

  it('refuses USER_PASSWORD_AUTH, which the app client does not allow', async () => {
    await createUser(harness, 'plain.password@example.com', 'Plain#Pass12');
    await expect(
      authenticate(
        userFor(harness.pool, 'plain.password@example.com'),
        'plain.password@example.com',
        'Plain#Pass12',
        'USER_PASSWORD_AUTH',
      ),
    ).rejects.toMatchObject({
      code: 'InvalidParameterException',
      message: 'USER_PASSWORD_AUTH flow not enabled for this client',
    });
  });
});

describe('refused sign-ins', () => {
  it('answers a wrong password and an unknown account alike', async () => {
    await createUser(harness, 'known@example.com', 'Known#Pass1');
    await expect(
      authenticate(userFor(harness.pool, 'known@example.com'), 'known@example.com', 'Wrong#Pass1'),
    ).rejects.toMatchObject(incorrect);
    await expect(
      authenticate(userFor(harness.pool, 'nobody@example.com'), 'nobody@example.com', 'Known#Pass1'),
    ).rejects.toMatchObject(incorrect);
  });

  it('refuses a disabled account with the right password', async () => {
    await createUser(harness, 'disabled@example.com', 'Disabled#1');
    await harness.admin.send(
      new AdminDisableUserCommand({ UserPoolId: harness.emulator.userPoolId, Username: 'disabled@example.com' }),
    );
    await expect(
      authenticate(userFor(harness.pool, 'disabled@example.com'), 'disabled@example.com', 'Disabled#1'),
    ).rejects.toMatchObject({
      code: 'NotAuthorizedException',
      message: 'User is disabled.',
    });
    await expect(
      authenticate(userFor(harness.pool, 'disabled@example.com'), 'disabled@example.com', 'Wrong#Pass1'),
    ).rejects.toMatchObject(incorrect);
  });

  it('tells an unconfirmed sign-up to confirm first', async () => {
    await harness.admin.send(
      new SignUpCommand({
        ClientId: harness.emulator.clientId,
        Username: 'pending@example.com',
        Password: 'Pending#12',
      }),
    );
    await expect(
      authenticate(userFor(harness.pool, 'pending@example.com'), 'pending@example.com', 'Pending#12'),
    ).rejects.toMatchObject({
      code: 'UserNotConfirmedException',
      message: 'User is not confirmed.',
    });
  });

  it('locks the account after five wrong passwords, with growing lockouts', async () => {
    await createUser(harness, 'locked@example.com', 'Locked#Pass1');
    const attempt = (password: string) =>
      authenticate(userFor(harness.pool, 'locked@example.com'), 'locked@example.com', password);
    // The first lockouts last about a second: only the test moves the clock, not the machine's delays.
    harness.freeze();
    onTestFinished(() => harness.run());
    for (let index = 0; index < 5; index += 1) await expect(attempt('Wrong#Pass1')).rejects.toMatchObject(incorrect);
    const exceeded = { code: 'NotAuthorizedException', message: 'Password attempts exceeded' };
    await expect(attempt('Locked#Pass1')).rejects.toMatchObject(exceeded);
    harness.advance(1_100);
    await expect(attempt('Wrong#Pass1')).rejects.toMatchObject(incorrect);
    harness.advance(1_100);
    await expect(attempt('Locked#Pass1')).rejects.toMatchObject(exceeded);
    harness.advance(1_000);
    expect((await attempt('Locked#Pass1')).step).toBe('MFA_SETUP');
  });

  it('expires a sign-in session after three minutes', async () => {
    await createUser(harness, 'slow@example.com', 'Slow#Pass12');
    const user = userFor(harness.pool, 'slow@example.com');
    await authenticate(user, 'slow@example.com', 'Slow#Pass12');
    harness.advance(3 * 60_000 + 1_000);
    await expect(associateSoftwareToken(user)).rejects.toMatchObject({
      code: 'NotAuthorizedException',
      message: 'Invalid session for the user, session is expired.',
    });
  });
});

describe('accounts created by an administrator (temporary password)', () => {
  const createInvited = (email: string, temporaryPassword: string) =>
    harness.admin.send(
      new AdminCreateUserCommand({
        UserPoolId: harness.emulator.userPoolId,
        Username: email,
        TemporaryPassword: temporaryPassword,
        UserAttributes: [{ Name: 'email_verified', Value: 'true' }],
      }),
    );

  it('requires a new password that meets the policy, then MFA setup', async () => {
    await createInvited('invited@example.com', 'Temp#Pass12');
    const user = userFor(harness.pool, 'invited@example.com');
    const outcome = await authenticate(user, 'invited@example.com', 'Temp#Pass12');
    expect(outcome).toMatchObject({
      step: 'NEW_PASSWORD_REQUIRED',
      userAttributes: { email: 'invited@example.com', email_verified: 'true' },
    });
    await expect(answerNewPassword(user, 'nouppercase#1')).rejects.toMatchObject({
      code: 'InvalidPasswordException',
      message: 'Password did not conform with policy: Password must have uppercase characters',
    });
    expect(await answerNewPassword(user, 'Chosen#Pass1')).toEqual({ step: 'MFA_SETUP' });
    await expect(
      authenticate(userFor(harness.pool, 'invited@example.com'), 'invited@example.com', 'Temp#Pass12'),
    ).rejects.toMatchObject(incorrect);
  });

  it('refuses a temporary password after seven days', async () => {
    await createInvited('late@example.com', 'Temp#Late12');
    harness.advance(7 * 24 * 60 * 60_000 + 1_000);
    await expect(
      authenticate(userFor(harness.pool, 'late@example.com'), 'late@example.com', 'Temp#Late12'),
    ).rejects.toMatchObject({
      code: 'NotAuthorizedException',
      message: 'Temporary password has expired and must be reset by an administrator.',
    });
  });
});

import {
  AdminCreateUserCommand,
  AdminGetUserCommand,
  ConfirmSignUpCommand,
  ForgotPasswordCommand,
  SignUpCommand,
  UpdateUserAttributesCommand,
} from '@aws-sdk/client-cognito-identity-provider';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  authenticate,
  changePassword,
  confirmPassword,
  confirmRegistration,
  forgotPassword,
  signUp,
  userFor,
} from './support/cognito-client.ts';
import {
  createEnrolledUser,
  createUser,
  lastMailTo,
  startHarness,
  WEB_URL,
  type CognitoHarness,
} from './support/cognito-harness.ts';

let harness: CognitoHarness;
beforeAll(async () => {
  harness = await startHarness();
});
afterAll(() => harness.close());

/** The confirmation link of the newest sign-up email to an address. */
function confirmationLink(to: string): URL {
  const message = lastMailTo(harness, to);
  expect(message.subject).toBe('Your verification link');
  const link = /(http:\S+\/confirmUser\?\S+)/.exec(message.text)?.[1];
  if (!link) throw new Error('no link in the email');
  return new URL(link);
}

const resetCode = (to: string) => {
  const message = lastMailTo(harness, to);
  expect(message.subject).toBe('Your password reset code');
  return /Your password reset code is (\d{6})/.exec(message.text)![1]!;
};

describe('sign-up confirmed by email link', () => {
  it('signs up, confirms through the emailed link and runs the post-confirmation trigger', async () => {
    const result = await signUp(harness.pool, 'new.person@example.com', 'New#Person1');
    expect(result.userConfirmed).toBe(false);
    expect(result.userSub).toMatch(/^[0-9a-f-]{36}$/);
    expect(result.codeDeliveryDetails).toEqual({
      Destination: 'n***@e***',
      DeliveryMedium: 'EMAIL',
      AttributeName: 'email',
    });

    const link = confirmationLink('new.person@example.com');
    expect(link.origin).toBe(harness.emulator.url);
    expect(link.searchParams.get('client_id')).toBe(harness.emulator.clientId);
    expect(link.searchParams.get('user_name')).toBe(result.userSub);
    expect(link.searchParams.get('confirmation_code')).toMatch(/^\d{6}$/);

    const page = await fetch(link);
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toContain('text/html');
    const html = await page.text();
    expect(html).toContain('Your registration has been confirmed!');
    expect(html).toContain(`href="${WEB_URL}/login"`);
    expect(harness.triggerEvents.at(-1)).toMatchObject({
      triggerSource: 'PostConfirmation_ConfirmSignUp',
      userName: result.userSub,
      userPoolId: harness.emulator.userPoolId,
      request: {
        userAttributes: { email: 'new.person@example.com', email_verified: 'true', 'cognito:user_status': 'CONFIRMED' },
      },
    });
    expect(
      await authenticate(userFor(harness.pool, 'new.person@example.com'), 'new.person@example.com', 'New#Person1'),
    ).toEqual({
      step: 'MFA_SETUP',
    });

    const again = await fetch(link);
    expect(again.status).toBe(400);
    expect(await again.text()).toContain('already confirmed');
  });

  it('shows a clear page for a wrong or incomplete link and changes nothing', async () => {
    const { userSub } = await signUp(harness.pool, 'bad.link@example.com', 'Bad#Link12');
    const link = confirmationLink('bad.link@example.com');
    link.searchParams.set(
      'confirmation_code',
      link.searchParams.get('confirmation_code') === '000000' ? '000001' : '000000',
    );
    const wrong = await fetch(link);
    expect(wrong.status).toBe(400);
    expect(await wrong.text()).toContain('This confirmation link is not valid');
    const incomplete = await fetch(`${harness.emulator.url}/confirmUser?user_name=${userSub}`);
    expect(incomplete.status).toBe(400);
    const user = await harness.admin.send(
      new AdminGetUserCommand({ UserPoolId: harness.emulator.userPoolId, Username: userSub }),
    );
    expect(user.UserStatus).toBe('UNCONFIRMED');
  });

  it('confirms with the code through ConfirmSignUp, refusing a wrong one', async () => {
    await signUp(harness.pool, 'by.code@example.com', 'By#Code1234');
    const code = confirmationLink('by.code@example.com').searchParams.get('confirmation_code')!;
    const user = userFor(harness.pool, 'by.code@example.com');
    await expect(confirmRegistration(user, code === '123456' ? '654321' : '123456')).rejects.toMatchObject({
      code: 'CodeMismatchException',
      message: 'Invalid verification code provided, please try again.',
    });
    await confirmRegistration(user, code);
    await expect(confirmRegistration(user, code)).rejects.toMatchObject({
      code: 'NotAuthorizedException',
      message: 'User cannot be confirmed. Current status is CONFIRMED',
    });
  });

  it('expires sign-up codes after 24 hours; a resent link works', async () => {
    await signUp(harness.pool, 'slow.confirm@example.com', 'Slow#Conf12');
    const oldLink = confirmationLink('slow.confirm@example.com');
    harness.advance(24 * 60 * 60_000 + 1_000);
    const user = userFor(harness.pool, 'slow.confirm@example.com');
    await expect(confirmRegistration(user, oldLink.searchParams.get('confirmation_code')!)).rejects.toMatchObject({
      code: 'ExpiredCodeException',
      message: 'Invalid code provided, please request a code again.',
    });
    const expiredPage = await fetch(oldLink);
    expect(await expiredPage.text()).toContain('This confirmation link has expired');
    await new Promise<void>((resolve, reject) =>
      user.resendConfirmationCode((error) => (error ? reject(error) : resolve())),
    );
    expect((await fetch(confirmationLink('slow.confirm@example.com'))).status).toBe(200);
  });

  it('stops accepting codes after five wrong ones', async () => {
    await signUp(harness.pool, 'guesser@example.com', 'Guess#er123');
    const code = confirmationLink('guesser@example.com').searchParams.get('confirmation_code')!;
    const wrong = code === '111111' ? '222222' : '111111';
    const confirm = (value: string) =>
      harness.admin.send(
        new ConfirmSignUpCommand({
          ClientId: harness.emulator.clientId,
          Username: 'guesser@example.com',
          ConfirmationCode: value,
        }),
      );
    for (let index = 0; index < 5; index += 1)
      await expect(confirm(wrong)).rejects.toMatchObject({ name: 'CodeMismatchException' });
    await expect(confirm(code)).rejects.toMatchObject({
      name: 'LimitExceededException',
      message: 'Attempt limit exceeded, please try after some time.',
    });
  });

  it('refuses a taken email, a username that is not an email and weak passwords', async () => {
    const send = (Username: string, Password: string) =>
      harness.admin.send(new SignUpCommand({ ClientId: harness.emulator.clientId, Username, Password }));
    await send('taken@example.com', 'Taken#Pass1');
    await expect(send('Taken@Example.com', 'Taken#Pass1')).rejects.toMatchObject({
      name: 'UsernameExistsException',
      message: 'An account with the given email already exists.',
    });
    await expect(send('not-an-email', 'Valid#Pass1')).rejects.toMatchObject({
      name: 'InvalidParameterException',
      message: 'Username should be an email.',
    });
    const policy = [
      ['Sh0rt!a', 'Password not long enough'],
      ['ALLUPPER#1', 'Password must have lowercase characters'],
      ['alllower#1', 'Password must have uppercase characters'],
      ['NoDigits#x', 'Password must have numeric characters'],
      ['NoSymbol12', 'Password must have symbol characters'],
    ];
    for (const [password, rule] of policy) {
      await expect(send('weak@example.com', password!)).rejects.toMatchObject({
        name: 'InvalidPasswordException',
        message: `Password did not conform with policy: ${rule}`,
      });
    }
    expect((await send('weak@example.com', 'Strong#Pass1')).UserConfirmed).toBe(false);
  });
});

describe('a pool where only administrators create users', () => {
  it('refuses SignUp when self sign-up is off, creating no account and sending no mail', async () => {
    const closed = await startHarness({ allowSelfSignUp: false });
    try {
      await expect(
        closed.admin.send(
          new SignUpCommand({
            ClientId: closed.emulator.clientId,
            Username: 'visitor@example.com',
            Password: 'Visitor#123',
          }),
        ),
      ).rejects.toMatchObject({
        name: 'NotAuthorizedException',
        message: 'SignUp is not permitted for this user pool',
      });
      await expect(
        closed.admin.send(
          new AdminGetUserCommand({ UserPoolId: closed.emulator.userPoolId, Username: 'visitor@example.com' }),
        ),
      ).rejects.toMatchObject({ name: 'UserNotFoundException' });
      expect(closed.mail).toEqual([]);
    } finally {
      await closed.close();
    }
  });
});

describe('password reset by emailed code', () => {
  it('answers known and unknown emails alike and emails a code only to the known one', async () => {
    await createUser(harness, 'forgetful@example.com', 'Forget#Ful1');
    const sentBefore = harness.mail.length;
    const known = await forgotPassword(userFor(harness.pool, 'forgetful@example.com'));
    const unknown = await forgotPassword(userFor(harness.pool, 'fabricated@example.com'));
    expect(known).toEqual({
      CodeDeliveryDetails: { Destination: 'f***@e***', DeliveryMedium: 'EMAIL', AttributeName: 'email' },
    });
    expect(unknown).toEqual(known);
    expect(harness.mail.slice(sentBefore).map((message) => message.to)).toEqual(['forgetful@example.com']);
  });

  it('sets the new password with the code and runs the trigger', async () => {
    await createUser(harness, 'resetter@example.com', 'Reset#Ter12');
    const user = userFor(harness.pool, 'resetter@example.com');
    await forgotPassword(user);
    const code = resetCode('resetter@example.com');
    await expect(confirmPassword(user, code === '123456' ? '654321' : '123456', 'Fresh#Pass12')).rejects.toMatchObject({
      code: 'CodeMismatchException',
      message: 'Invalid verification code provided, please try again.',
    });
    await expect(confirmPassword(user, code, 'weakpass')).rejects.toMatchObject({ code: 'InvalidPasswordException' });
    await confirmPassword(user, code, 'Fresh#Pass12');
    expect(harness.triggerEvents.at(-1)?.triggerSource).toBe('PostConfirmation_ConfirmForgotPassword');
    await expect(
      authenticate(userFor(harness.pool, 'resetter@example.com'), 'resetter@example.com', 'Reset#Ter12'),
    ).rejects.toMatchObject({
      code: 'NotAuthorizedException',
    });
    expect(
      (await authenticate(userFor(harness.pool, 'resetter@example.com'), 'resetter@example.com', 'Fresh#Pass12')).step,
    ).toBe('MFA_SETUP');
    await expect(
      confirmPassword(userFor(harness.pool, 'fabricated@example.com'), code, 'Fresh#Pass12'),
    ).rejects.toMatchObject({
      code: 'CodeMismatchException',
    });
  });

  it('expires reset codes after an hour and limits how many are sent', async () => {
    await createUser(harness, 'hourly@example.com', 'Hour#Ly1234');
    const user = userFor(harness.pool, 'hourly@example.com');
    await forgotPassword(user);
    const code = resetCode('hourly@example.com');
    harness.advance(60 * 60_000 + 1_000);
    await expect(confirmPassword(user, code, 'Fresh#Pass12')).rejects.toMatchObject({
      code: 'ExpiredCodeException',
      message: 'Invalid code provided, please request a code again.',
    });
    // The first code is more than an hour old: five more may be sent this hour, not six.
    for (let index = 0; index < 5; index += 1) await forgotPassword(user);
    await expect(forgotPassword(user)).rejects.toMatchObject({
      code: 'LimitExceededException',
      message: 'Attempt limit exceeded, please try after some time.',
    });
  });

  it('refuses a reset for accounts without a verified email or still on a temporary password', async () => {
    await signUp(harness.pool, 'unverified@example.com', 'Un#Verified1');
    await expect(forgotPassword(userFor(harness.pool, 'unverified@example.com'))).rejects.toMatchObject({
      code: 'InvalidParameterException',
      message: 'Cannot reset password for the user as there is no registered/verified email or phone_number',
    });
    await harness.admin.send(
      new AdminCreateUserCommand({
        UserPoolId: harness.emulator.userPoolId,
        Username: 'temporary@example.com',
        MessageAction: 'SUPPRESS',
        UserAttributes: [{ Name: 'email_verified', Value: 'true' }],
      }),
    );
    await expect(
      harness.admin.send(
        new ForgotPasswordCommand({ ClientId: harness.emulator.clientId, Username: 'temporary@example.com' }),
      ),
    ).rejects.toMatchObject({
      name: 'NotAuthorizedException',
      message: 'User password cannot be reset in the current state.',
    });
  });
});

describe('a signed-in user changing their account', () => {
  it('changes the password after proving the current one', async () => {
    const { session } = await createEnrolledUser(harness, 'changer@example.com', 'Change#Me12');
    const user = userFor(harness.pool, 'changer@example.com');
    user.setSignInUserSession(session);
    await expect(changePassword(user, 'Wrong#Pass1', 'Changed#Me12')).rejects.toMatchObject({
      code: 'NotAuthorizedException',
      message: 'Incorrect username or password.',
    });
    await expect(changePassword(user, 'Change#Me12', 'weak')).rejects.toMatchObject({
      code: 'InvalidPasswordException',
    });
    await changePassword(user, 'Change#Me12', 'Changed#Me12');
    expect(
      (await authenticate(userFor(harness.pool, 'changer@example.com'), 'changer@example.com', 'Changed#Me12')).step,
    ).toBe('SOFTWARE_TOKEN_MFA');
  });

  it('updates attributes; a new email is unverified and must be free', async () => {
    await createUser(harness, 'occupied@example.com', 'Occu#Pied12');
    const { session, username } = await createEnrolledUser(harness, 'mover@example.com', 'Mov#Er12345');
    const AccessToken = session.getAccessToken().getJwtToken();
    const update = (Name: string, Value: string) =>
      harness.admin.send(new UpdateUserAttributesCommand({ AccessToken, UserAttributes: [{ Name, Value }] }));
    await expect(update('email', 'Occupied@example.com')).rejects.toMatchObject({
      name: 'AliasExistsException',
      message: 'An account with the given email already exists.',
    });
    await expect(update('email_verified', 'true')).rejects.toMatchObject({ name: 'InvalidParameterException' });
    await expect(update('custom:tier', 'gold')).rejects.toMatchObject({ name: 'InvalidParameterException' });
    await update('email', 'moved@example.com');
    const attributes = (
      await harness.admin.send(
        new AdminGetUserCommand({ UserPoolId: harness.emulator.userPoolId, Username: 'moved@example.com' }),
      )
    ).UserAttributes;
    expect(Object.fromEntries(attributes!.map(({ Name, Value }) => [Name, Value]))).toEqual({
      sub: username,
      email: 'moved@example.com',
      email_verified: 'false',
    });
  });
});

describe('a failing post-confirmation trigger', () => {
  it('reports the failure as Cognito does while the account stays confirmed', async () => {
    const failing = await startHarness({ failPostConfirmation: true });
    try {
      await signUp(failing.pool, 'trigger@example.com', 'Trig#Ger123');
      const code = /confirmation_code=(\d{6})/.exec(lastMailTo(failing, 'trigger@example.com').text)![1]!;
      await expect(
        failing.admin.send(
          new ConfirmSignUpCommand({
            ClientId: failing.emulator.clientId,
            Username: 'trigger@example.com',
            ConfirmationCode: code,
          }),
        ),
      ).rejects.toMatchObject({
        name: 'UserLambdaValidationException',
        message: 'PostConfirmation failed with error trigger unavailable.',
      });
      const user = await failing.admin.send(
        new AdminGetUserCommand({ UserPoolId: failing.emulator.userPoolId, Username: 'trigger@example.com' }),
      );
      expect(user.UserStatus).toBe('CONFIRMED');
    } finally {
      await failing.close();
    }
  });
});

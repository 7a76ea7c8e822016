import { AdminCreateUserCommand, AdminGetUserCommand } from '@aws-sdk/client-cognito-identity-provider';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { answerNewPassword, authenticate, userFor } from '../local/support/cognito-client.ts';
import { startCognitoTarget, type CognitoTarget } from './support/cognito-target.ts';

/**
 * The invitation behaviour of AdminCreateUser that account creation, Resend Invitation and the
 * bulk import rely on, each test named after the API reference page it follows. Runs against
 * the local emulator and, unchanged, against a scratch user pool in AWS (the temporary
 * passwords are given here, as reading an invitation email needs a mailbox).
 */

let target: CognitoTarget;
beforeAll(async () => {
  target = await startCognitoTarget();
  // The first start may synthesize the app for the functions' role policies (support/front-door.ts).
}, 300_000);
afterAll(() => target?.close());

const TEMPORARY = 'Temp#Invite1';

const invite = (email: string, extra: Partial<ConstructorParameters<typeof AdminCreateUserCommand>[0]> = {}) =>
  target.admin.send(
    new AdminCreateUserCommand({
      UserPoolId: target.userPoolId,
      Username: email,
      TemporaryPassword: TEMPORARY,
      MessageAction: 'SUPPRESS',
      UserAttributes: [
        { Name: 'email', Value: email },
        { Name: 'email_verified', Value: 'true' },
      ],
      ...extra,
    }),
  );

const statusOf = async (email: string) =>
  (await target.admin.send(new AdminGetUserCommand({ UserPoolId: target.userPoolId, Username: email }))).UserStatus;

describe('AdminCreateUser invitations', () => {
  it('AdminCreateUser: the new user is FORCE_CHANGE_PASSWORD and its first sign-in is the NEW_PASSWORD_REQUIRED challenge, then MFA_SETUP', async () => {
    const email = target.email('invited');
    const answer = await invite(email);
    expect(answer.User?.UserStatus).toBe('FORCE_CHANGE_PASSWORD');
    expect(await statusOf(email)).toBe('FORCE_CHANGE_PASSWORD');
    const user = userFor(target.pool(), email);
    expect(await authenticate(user, email, TEMPORARY)).toMatchObject({ step: 'NEW_PASSWORD_REQUIRED' });
    expect(await answerNewPassword(user, 'Chosen#Pass1')).toEqual({ step: 'MFA_SETUP' });
    expect(await statusOf(email)).toBe('CONFIRMED');
  });

  it('AdminCreateUser: an existing user name is UsernameExistsException', async () => {
    const email = target.email('twice');
    await invite(email);
    await expect(invite(email)).rejects.toMatchObject({ name: 'UsernameExistsException' });
  });

  it('AdminCreateUser: MessageAction RESEND for a user who has set a password is UnsupportedUserStateException', async () => {
    const email = target.email('confirmed');
    await target.createUser(email, 'Confirmed#Pass1');
    await expect(
      target.admin.send(
        new AdminCreateUserCommand({ UserPoolId: target.userPoolId, Username: email, MessageAction: 'RESEND' }),
      ),
    ).rejects.toMatchObject({ name: 'UnsupportedUserStateException' });
  });

  it('AdminCreateUser: MessageAction RESEND for an unknown user is UserNotFoundException', async () => {
    await expect(
      target.admin.send(
        new AdminCreateUserCommand({
          UserPoolId: target.userPoolId,
          Username: target.email('nobody'),
          MessageAction: 'RESEND',
        }),
      ),
    ).rejects.toMatchObject({ name: 'UserNotFoundException' });
  });

  it('AdminCreateUser: MessageAction RESEND resets the temporary password, the old one stops working, the user stays FORCE_CHANGE_PASSWORD', async () => {
    const email = target.email('resend');
    await invite(email);
    await target.admin.send(
      new AdminCreateUserCommand({
        UserPoolId: target.userPoolId,
        Username: email,
        MessageAction: 'RESEND',
        DesiredDeliveryMediums: ['EMAIL'],
      }),
    );
    expect(await statusOf(email)).toBe('FORCE_CHANGE_PASSWORD');
    await expect(authenticate(userFor(target.pool(), email), email, TEMPORARY)).rejects.toMatchObject({
      code: 'NotAuthorizedException',
    });
  });

  it('AdminCreateUser: a TemporaryPassword that breaks the pool policy is InvalidPasswordException and creates nobody', async () => {
    const email = target.email('weak');
    await expect(invite(email, { TemporaryPassword: 'weakpass' })).rejects.toMatchObject({
      name: 'InvalidPasswordException',
    });
    await expect(statusOf(email)).rejects.toMatchObject({ name: 'UserNotFoundException' });
  });
});

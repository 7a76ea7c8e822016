import { AdminCreateUserCommand, AdminSetUserPasswordCommand } from '@aws-sdk/client-cognito-identity-provider';
import { afterEach, describe, expect, it } from 'vitest';
import { invitationMessage } from '#lib/auth.ts';
import { USER_POOL_CLIENT } from '#contracts/user-pool-client.ts';
import { startCognitoEmulator } from '#emulators/cognito/index.ts';
import { DEFAULT_INVITATION, invitationEmail } from '#emulators/cognito/mail.ts';
import { answerNewPassword, authenticate, userFor } from './support/cognito-client.ts';
import { startHarness, type CognitoHarness } from './support/cognito-harness.ts';

/** The pool's invitation emails as the emulator sends them: template, escaping, policy, expiry. */

const TEMPLATE = invitationMessage('TVIQ & Co', 'http://localhost:4400', 3);

let harness: CognitoHarness | undefined;
afterEach(async () => {
  await harness?.close();
  harness = undefined;
});

const start = async () => {
  harness = await startHarness({
    invitation: { emailSubject: TEMPLATE.emailSubject, emailMessage: TEMPLATE.emailBody },
    temporaryPasswordValidityDays: 3,
  });
  return harness;
};

const invite = (
  h: CognitoHarness,
  email: string,
  extra: Partial<ConstructorParameters<typeof AdminCreateUserCommand>[0]> = {},
) =>
  h.admin.send(
    new AdminCreateUserCommand({
      UserPoolId: h.emulator.userPoolId,
      Username: email,
      DesiredDeliveryMediums: ['EMAIL'],
      UserAttributes: [
        { Name: 'email', Value: email },
        { Name: 'email_verified', Value: 'true' },
      ],
      ...extra,
    }),
  );

/** The temporary password of the latest invitation to `email`, read from its HTML as a person would. */
const passwordIn = (h: CognitoHarness, email: string) => {
  const message = h.mail.filter((mail) => mail.to === email).at(-1);
  const match = /Temporary password:<br><code>([^<]*)<\/code>/.exec(message?.html ?? '');
  if (!match) throw new Error(`no invitation to ${email}`);
  return match[1]!.replace(/&#(\d+);/g, (_, code: string) => String.fromCharCode(Number(code)));
};

describe('invitation emails', () => {
  it('generates a temporary password that satisfies the pool policy and sends it with the pool template', async () => {
    const h = await start();
    await invite(h, 'ann@example.com');
    const [message] = h.mail;
    expect(message).toMatchObject({ to: 'ann@example.com', subject: 'Your TVIQ & Co account' });
    expect(message!.html).toContain('TVIQ &#38; Co');
    expect(message!.html).toContain('<code>ann@example.com</code>');
    expect(message!.html).toContain('href="http://localhost:4400/login"');
    expect(message!.text).toContain('User name:\nann@example.com');
    const password = passwordIn(h, 'ann@example.com');
    expect(password).toMatch(/^(?=.*[a-z])(?=.*[A-Z])(?=.*\d)(?=.*[\^$*.!@#%&]).{12,}$/);
    const user = userFor(h.pool, 'ann@example.com');
    expect(await authenticate(user, 'ann@example.com', password)).toMatchObject({ step: 'NEW_PASSWORD_REQUIRED' });
    expect(await answerNewPassword(user, 'Chosen#Pass1')).toEqual({ step: 'MFA_SETUP' });
  });

  it('escapes the values it puts into the HTML', async () => {
    const h = await start();
    await invite(h, 'amp@example.com', { TemporaryPassword: 'Temp&<b>x1A' });
    expect(h.mail[0]!.html).toContain('<code>Temp&#38;&#60;b&#62;x1A</code>');
    expect(h.mail[0]!.text).toContain('Temp&<b>x1A');
  });

  it('sends nothing with SUPPRESS, and a new password with RESEND that replaces the old one', async () => {
    const h = await start();
    await invite(h, 'bob@example.com', { MessageAction: 'SUPPRESS', TemporaryPassword: 'First#Temp1' });
    expect(h.mail).toHaveLength(0);
    await invite(h, 'bob@example.com', { MessageAction: 'RESEND', UserAttributes: undefined });
    const resent = passwordIn(h, 'bob@example.com');
    expect(resent).not.toBe('First#Temp1');
    await expect(
      authenticate(userFor(h.pool, 'bob@example.com'), 'bob@example.com', 'First#Temp1'),
    ).rejects.toMatchObject({ code: 'NotAuthorizedException' });
    expect(await authenticate(userFor(h.pool, 'bob@example.com'), 'bob@example.com', resent)).toMatchObject({
      step: 'NEW_PASSWORD_REQUIRED',
    });
  });

  it('expires the temporary password after the pool validity, and RESEND gives a working one again', async () => {
    const h = await start();
    await invite(h, 'late@example.com');
    h.advance(3 * 24 * 60 * 60_000 + 1_000);
    await expect(
      authenticate(userFor(h.pool, 'late@example.com'), 'late@example.com', passwordIn(h, 'late@example.com')),
    ).rejects.toMatchObject({
      code: 'NotAuthorizedException',
      message: 'Temporary password has expired and must be reset by an administrator.',
    });
    await invite(h, 'late@example.com', { MessageAction: 'RESEND', UserAttributes: undefined });
    expect(
      await authenticate(userFor(h.pool, 'late@example.com'), 'late@example.com', passwordIn(h, 'late@example.com')),
    ).toMatchObject({
      step: 'NEW_PASSWORD_REQUIRED',
    });
  });

  it('refuses RESEND once the user has a permanent password', async () => {
    const h = await start();
    await invite(h, 'done@example.com', { MessageAction: 'SUPPRESS', TemporaryPassword: 'First#Temp1' });
    await h.admin.send(
      new AdminSetUserPasswordCommand({
        UserPoolId: h.emulator.userPoolId,
        Username: 'done@example.com',
        Password: 'Chosen#Pass1',
        Permanent: true,
      }),
    );
    await expect(
      invite(h, 'done@example.com', { MessageAction: 'RESEND', UserAttributes: undefined }),
    ).rejects.toMatchObject({
      name: 'UnsupportedUserStateException',
    });
  });

  it('refuses a template without both placeholders at start', async () => {
    await expect(
      startCognitoEmulator({
        dataDir: '/tmp/never-created-invitation-test',
        region: 'us-east-2',
        client: USER_POOL_CLIENT,
        sendEmail: async () => undefined,
        invitation: { emailSubject: 'Hi', emailMessage: 'Your password is {####}' },
      }),
    ).rejects.toThrow('{username}');
  });
});

describe('invitation text', () => {
  it('carries a generated password with $ and & exactly as generated (no replacement patterns)', () => {
    for (const password of ['Ab3$&x$$y#1k', "Zz9$'q$`w!2p", 'Qq7&<b>"c%1x']) {
      const mail = invitationEmail(DEFAULT_INVITATION, 'a@example.com', 'a@example.com', password);
      expect(mail.text).toBe(`Your username is a@example.com and temporary password is ${password}.`);
      expect(mail.html).not.toContain('{####}');
    }
  });
});

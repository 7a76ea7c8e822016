import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { LOCAL_CREDENTIALS } from '#clients/local-stack.ts';
import { startMailCapture, type MailCapture } from '#emulators/ses/capture.ts';
import { capturedMailListSchema, htmlToText } from '#emulators/ses/messages.ts';
import { COGNITO_DEFAULT_SENDER } from '#emulators/shared/cognito-sender.ts';
import { cognitoMailSender, mailSender } from '#emulators/ses/send.ts';

const VERIFIED = ['tviq.local'];

async function messages(capture: MailCapture) {
  const response = await fetch(capture.apiUrl);
  expect(response.status).toBe(200);
  return capturedMailListSchema.parse(await response.json());
}

describe('local mail capture', () => {
  let dataDir: string;
  let capture: MailCapture | undefined;

  beforeAll(async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'portal-mail-test-'));
  });
  afterEach(async () => {
    await capture?.close();
    capture = undefined;
  });
  afterAll(async () => {
    await rm(dataDir, { recursive: true, force: true });
  });

  it('captures SES v2 SendEmail and lists the messages newest first with to, subject and text', async () => {
    capture = await startMailCapture({ host: '127.0.0.1', port: 0, apiPort: 0, dataDir, verifiedIdentities: VERIFIED });
    const cognito = cognitoMailSender(capture, { region: 'us-east-2', credentials: LOCAL_CREDENTIALS });
    const product = mailSender({ endpoint: capture.sesEndpoint, region: 'us-east-2', credentials: LOCAL_CREDENTIALS });
    await cognito.send({
      to: 'first@example.com',
      subject: 'Your verification link',
      text: 'Click http://x/confirm',
      html: '<p>Click</p>',
    });
    await product.send({
      to: 'second@tviq.local',
      from: 'support@tviq.local',
      subject: 'Your password reset code',
      text: 'Your code is 123456',
    });
    cognito.destroy();
    product.destroy();

    const listed = await messages(capture);
    expect(listed.map((m) => m.to)).toEqual([['second@tviq.local'], ['first@example.com']]);
    expect(listed[0]).toMatchObject({
      from: 'support@tviq.local',
      subject: 'Your password reset code',
      text: 'Your code is 123456',
      html: null,
    });
    expect(listed[1]).toMatchObject({
      from: COGNITO_DEFAULT_SENDER,
      text: 'Click http://x/confirm',
      html: '<p>Click</p>',
    });
    expect(Date.parse(listed[0]!.at)).toBeGreaterThan(Date.now() - 60_000);

    const inbox = await fetch(capture.inboxUrl);
    expect(inbox.status).toBe(200);
    expect(inbox.headers.get('content-type')).toContain('text/html');
  });

  it("delivers Cognito's emails to any address, while the SES endpoint keeps the sandbox for the same message", async () => {
    capture = await startMailCapture({ host: '127.0.0.1', port: 0, apiPort: 0, dataDir, verifiedIdentities: VERIFIED });
    const before = (await messages(capture)).length;
    const product = mailSender({ endpoint: capture.sesEndpoint, region: 'us-east-2', credentials: LOCAL_CREDENTIALS });
    const mail = { to: 'new-user@example.org', subject: 'Welcome', text: 'Your temporary password' };
    await expect(product.send(mail)).rejects.toMatchObject({ name: 'MessageRejected' });
    product.destroy();
    expect(await messages(capture)).toHaveLength(before);

    const cognito = cognitoMailSender(capture, { region: 'us-east-2', credentials: LOCAL_CREDENTIALS });
    await cognito.send(mail);
    cognito.destroy();
    const listed = await messages(capture);
    expect(listed).toHaveLength(before + 1);
    expect(listed[0]).toMatchObject({ from: COGNITO_DEFAULT_SENDER, to: ['new-user@example.org'], subject: 'Welcome' });
  });

  it('keeps the captured messages across a restart', async () => {
    capture = await startMailCapture({ host: '127.0.0.1', port: 0, apiPort: 0, dataDir, verifiedIdentities: VERIFIED });
    expect((await messages(capture)).map((m) => m.subject)).toEqual([
      'Welcome',
      'Your password reset code',
      'Your verification link',
    ]);
  });

  it('shows every message on the inbox page, newest first, each web address a link, and what senders wrote escaped', async () => {
    capture = await startMailCapture({ host: '127.0.0.1', port: 0, apiPort: 0, dataDir, verifiedIdentities: VERIFIED });
    const cognito = cognitoMailSender(capture, { region: 'us-east-2', credentials: LOCAL_CREDENTIALS });
    await cognito.send({
      to: 'invited@example.com',
      subject: 'Your temporary password',
      text: 'Sign in at https://localhost:4400/login?email=invited%40example.com. Code: 123456',
      html: '<p>Sign in at <a href="https://localhost:4400/login">the portal</a></p>',
    });
    await cognito.send({
      to: 'support@example.com',
      subject: 'Support <b>request</b>',
      text: 'Hello <script>alert(1)</script> & "bye"',
    });
    cognito.destroy();

    const response = await fetch(capture.inboxUrl);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(response.headers.get('content-security-policy')).toBe(
      "default-src 'none'; style-src 'unsafe-inline'; img-src data:",
    );
    const page = await response.text();
    // Newest first: the support message above the invitation.
    const support = page.indexOf('<h2>Support &#60;b&#62;request&#60;/b&#62;</h2>');
    const invitation = page.indexOf('<h2>Your temporary password</h2>');
    expect(support).toBeGreaterThan(-1);
    expect(invitation).toBeGreaterThan(support);
    // The link is shown and clickable at once, without its sentence's full stop.
    expect(page).toContain(
      '<a href="https://localhost:4400/login?email=invited%40example.com">https://localhost:4400/login?email=invited%40example.com</a>. Code: 123456',
    );
    expect(page).toContain('<dd>invited@example.com</dd>');
    // A message's own markup is text on the page; its HTML version sits in a frame that runs no script.
    expect(page).not.toContain('<script>');
    expect(page).toContain('Hello &#60;script&#62;alert(1)&#60;/script&#62; &#38; &#34;bye&#34;');
    expect(page).toMatch(
      /<iframe sandbox="allow-popups allow-popups-to-escape-sandbox" [^>]*srcdoc="&#60;p&#62;Sign in at/,
    );
  });

  it('turns an HTML-only message into readable text, links included', () => {
    expect(
      htmlToText('<p>Please verify &amp; continue</p><p><a href="http://x/confirmUser?code=1">Verify Email</a></p>'),
    ).toBe('Please verify & continue\nVerify Email (http://x/confirmUser?code=1)');
  });
});

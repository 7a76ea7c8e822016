import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  CreateEmailIdentityCommand,
  CreateEmailTemplateCommand,
  DeleteEmailIdentityCommand,
  GetAccountCommand,
  GetEmailIdentityCommand,
  GetEmailTemplateCommand,
  SendBulkEmailCommand,
  SendEmailCommand,
  SESv2Client,
  type SendEmailCommandInput,
} from '@aws-sdk/client-sesv2';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { LOCAL_CREDENTIALS } from '#clients/local-stack.ts';
import { startMailCapture, type MailCapture } from '#emulators/ses/capture.ts';
import { capturedMailListSchema } from '#emulators/ses/messages.ts';

const SENDER = 'no-reply@tviq.local';
const RECIPIENT = 'support@tviq.local';
const VERIFIED = [SENDER, RECIPIENT, 'Partner.Example'];
// The SigV4 header shape the front reads the region from; aws-ses-v2-local checks no more.
const AUTH = 'AWS4-HMAC-SHA256 Credential=local/20250101/us-east-2/ses/aws4_request, SignedHeaders=host, Signature=00';

const refusal = (...names: string[]) =>
  `Email address is not verified. The following identities failed the check in region US-EAST-2: ${names.join(', ')}`;

function simple(
  from: string,
  destination: SendEmailCommandInput['Destination'],
  subject = 'Hello',
): SendEmailCommandInput {
  return {
    FromEmailAddress: from,
    Destination: destination,
    Content: { Simple: { Subject: { Data: subject }, Body: { Text: { Data: 'Body' } } } },
  };
}

function rawMessage(headers: string): Uint8Array {
  return Buffer.from(`${headers}\r\nSubject: Raw\r\nContent-Type: text/plain\r\n\r\nRaw body\r\n`);
}

async function startCapture(dataDir: string, sandbox?: boolean) {
  const capture = await startMailCapture({
    host: '127.0.0.1',
    port: 0,
    apiPort: 0,
    dataDir,
    verifiedIdentities: VERIFIED,
    ...(sandbox === undefined ? {} : { sandbox }),
  });
  const client = new SESv2Client({
    endpoint: capture.sesEndpoint,
    region: 'us-east-2',
    credentials: LOCAL_CREDENTIALS,
  });
  return { capture, client };
}

async function subjects(capture: MailCapture): Promise<string[]> {
  const response = await fetch(capture.apiUrl);
  return capturedMailListSchema.parse(await response.json()).map((mail) => mail.subject);
}

async function post(capture: MailCapture, path: string, body: string, headers: Record<string, string> = {}) {
  return fetch(`${capture.sesEndpoint}${path}`, {
    method: 'POST',
    headers: { authorization: AUTH, 'content-type': 'application/json', ...headers },
    body,
  });
}

/**
 * The sending rate is measured with the clock (Date): these tests hold it still and move it
 * themselves, and each test starts a minute after the last so the rate allows a send again.
 */
function controlClock() {
  beforeAll(() => {
    vi.useFakeTimers({ toFake: ['Date'] });
  });
  beforeEach(() => {
    vi.setSystemTime(Date.now() + 60_000);
  });
  afterAll(() => {
    vi.useRealTimers();
  });
}

const tick = (ms: number) => vi.setSystemTime(Date.now() + ms);

/** A client that makes one attempt, so a throttled send shows as SES answers it. */
const oneAttempt = (capture: MailCapture) =>
  new SESv2Client({
    endpoint: capture.sesEndpoint,
    region: 'us-east-2',
    credentials: LOCAL_CREDENTIALS,
    maxAttempts: 1,
  });

const sendError = (client: SESv2Client, input: SendEmailCommandInput) =>
  client.send(new SendEmailCommand(input)).then(
    () => new Error('SendEmail was accepted'),
    (e: unknown) => e,
  );

const RATE_EXCEEDED = 'Maximum sending rate exceeded.';
const NO_RECIPIENT = "Missing required header 'To'.";

describe('local SES in the sandbox (a new account)', () => {
  let dataDir: string;
  let capture: MailCapture;
  let client: SESv2Client;
  controlClock();

  beforeAll(async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'portal-ses-sandbox-'));
    ({ capture, client } = await startCapture(dataDir));
  });
  afterAll(async () => {
    client.destroy();
    await capture.close();
    await rm(dataDir, { recursive: true, force: true });
  });

  it('delivers from a verified sender to a verified recipient', async () => {
    const sent = await client.send(new SendEmailCommand(simple(SENDER, { ToAddresses: [RECIPIENT] }, 'verified both')));
    expect(sent.MessageId).toBeTruthy();
    expect(await subjects(capture)).toContain('verified both');
  });

  it('refuses an unverified recipient in To, Cc or Bcc with MessageRejected naming it, and delivers nothing', async () => {
    for (const destination of [
      { ToAddresses: ['someone@example.org'] },
      { ToAddresses: [RECIPIENT], CcAddresses: ['someone@example.org'] },
      { BccAddresses: ['someone@example.org'] },
    ]) {
      const error = await client
        .send(new SendEmailCommand(simple(SENDER, destination, 'unverified recipient')))
        .catch((e: unknown) => e);
      expect(error).toMatchObject({
        name: 'MessageRejected',
        message: refusal('someone@example.org'),
        $metadata: { httpStatusCode: 400 },
      });
    }
    expect(await subjects(capture)).not.toContain('unverified recipient');
  });

  it('refuses an unverified sender, naming it and every unverified recipient together', async () => {
    const error = await client
      .send(
        new SendEmailCommand(
          simple('Mallory <mallory@example.net>', { ToAddresses: ['a@example.org', RECIPIENT] }, 'bad sender'),
        ),
      )
      .catch((e: unknown) => e);
    expect(error).toMatchObject({
      name: 'MessageRejected',
      message: refusal('Mallory <mallory@example.net>', 'a@example.org'),
    });
    expect(await subjects(capture)).not.toContain('bad sender');
  });

  it('lets a verified domain cover its addresses and subdomains (any case), and an address its +labels but not another case', async () => {
    await client.send(
      new SendEmailCommand(
        simple(
          SENDER,
          { ToAddresses: ['x@partner.example', 'y@mail.PARTNER.example', 'support+urgent@tviq.local'] },
          'covered',
        ),
      ),
    );
    expect(await subjects(capture)).toContain('covered');
    const error = await client
      .send(new SendEmailCommand(simple('NO-REPLY@tviq.local', { ToAddresses: [RECIPIENT] })))
      .catch((e: unknown) => e);
    expect(error).toMatchObject({ name: 'MessageRejected', message: refusal('NO-REPLY@tviq.local') });
  });

  it('accepts the mailbox simulator as a recipient without verification', async () => {
    await client.send(
      new SendEmailCommand(simple(SENDER, { ToAddresses: ['success@simulator.amazonses.com'] }, 'simulator')),
    );
    expect(await subjects(capture)).toContain('simulator');
  });

  it('checks the From and To headers of a raw message', async () => {
    const unverifiedFrom = {
      Content: { Raw: { Data: rawMessage(`From: Eve <eve@example.net>\r\nTo: ${RECIPIENT}`) } },
    };
    await expect(client.send(new SendEmailCommand(unverifiedFrom))).rejects.toMatchObject({
      name: 'MessageRejected',
      message: refusal('eve@example.net'),
    });
    const unverifiedTo = {
      Content: { Raw: { Data: rawMessage(`From: ${SENDER}\r\nTo: "Doe, J" <j@example.org>,\r\n ${RECIPIENT}`) } },
    };
    await expect(client.send(new SendEmailCommand(unverifiedTo))).rejects.toMatchObject({
      name: 'MessageRejected',
      message: refusal('j@example.org'),
    });
    expect(await subjects(capture)).not.toContain('Raw');
  });

  it('applies the same check to SendBulkEmail and to the SES v1 query API', async () => {
    const bulk = new SendBulkEmailCommand({
      FromEmailAddress: SENDER,
      DefaultContent: { Template: { TemplateContent: { Subject: 'bulk', Text: 'Hi' } } },
      BulkEmailEntries: [
        { Destination: { ToAddresses: [RECIPIENT] } },
        { Destination: { ToAddresses: ['b@example.org'] } },
      ],
    });
    await expect(client.send(bulk)).rejects.toMatchObject({
      name: 'MessageRejected',
      message: refusal('b@example.org'),
    });

    const form = new URLSearchParams({
      Action: 'SendEmail',
      Source: SENDER,
      'Destination.ToAddresses.member.1': 'c@example.org',
      'Message.Subject.Data': 'v1',
      'Message.Body.Text.Data': 'Hi',
    });
    const response = await post(capture, '/', form.toString(), { 'content-type': 'application/x-www-form-urlencoded' });
    expect(response.status).toBe(400);
    const xml = await response.text();
    expect(xml).toContain('<Code>MessageRejected</Code>');
    expect(xml).toContain(refusal('c@example.org'));
    expect(await subjects(capture)).not.toContain('v1');
  });

  it('reports the sandbox in GetAccount: no production access, sending enabled, 200 per 24 hours at 1 per second', async () => {
    const account = await client.send(new GetAccountCommand({}));
    expect(account).toMatchObject({
      ProductionAccessEnabled: false,
      SendingEnabled: true,
      EnforcementStatus: 'HEALTHY',
      SendQuota: { Max24HourSend: 200, MaxSendRate: 1 },
    });
    const before = account.SendQuota!.SentLast24Hours!;
    await client.send(
      new SendEmailCommand(simple(SENDER, { ToAddresses: [RECIPIENT, 'success@simulator.amazonses.com'] })),
    );
    const after = await client.send(new GetAccountCommand({}));
    expect(after.SendQuota!.SentLast24Hours).toBe(before + 2);
  });

  it('reports verified identities, refuses unknown ones, and keeps a created identity pending (still refused as sender)', async () => {
    expect(await client.send(new GetEmailIdentityCommand({ EmailIdentity: SENDER }))).toMatchObject({
      IdentityType: 'EMAIL_ADDRESS',
      VerifiedForSendingStatus: true,
      VerificationStatus: 'SUCCESS',
    });
    expect(await client.send(new GetEmailIdentityCommand({ EmailIdentity: 'partner.example' }))).toMatchObject({
      IdentityType: 'DOMAIN',
      VerifiedForSendingStatus: true,
    });
    await expect(
      client.send(new GetEmailIdentityCommand({ EmailIdentity: 'nobody@example.org' })),
    ).rejects.toMatchObject({ name: 'NotFoundException', $metadata: { httpStatusCode: 404 } });

    const created = await client.send(new CreateEmailIdentityCommand({ EmailIdentity: 'new-sender@example.org' }));
    expect(created).toMatchObject({ IdentityType: 'EMAIL_ADDRESS', VerifiedForSendingStatus: false });
    expect(await client.send(new GetEmailIdentityCommand({ EmailIdentity: 'new-sender@example.org' }))).toMatchObject({
      VerificationStatus: 'PENDING',
      VerifiedForSendingStatus: false,
    });
    await expect(
      client.send(new CreateEmailIdentityCommand({ EmailIdentity: 'new-sender@example.org' })),
    ).rejects.toMatchObject({ name: 'AlreadyExistsException' });
    await expect(
      client.send(new SendEmailCommand(simple('new-sender@example.org', { ToAddresses: [RECIPIENT] }))),
    ).rejects.toMatchObject({ name: 'MessageRejected' });

    await client.send(new DeleteEmailIdentityCommand({ EmailIdentity: 'new-sender@example.org' }));
    await expect(
      client.send(new GetEmailIdentityCommand({ EmailIdentity: 'new-sender@example.org' })),
    ).rejects.toMatchObject({ name: 'NotFoundException' });
  });

  it('forwards other operations unchanged to the capture (templates)', async () => {
    await client.send(
      new CreateEmailTemplateCommand({
        TemplateName: 'welcome',
        TemplateContent: { Subject: 'Welcome {{name}}', Text: 'Hi {{name}}' },
      }),
    );
    expect(await client.send(new GetEmailTemplateCommand({ TemplateName: 'welcome' }))).toMatchObject({
      TemplateContent: { Subject: 'Welcome {{name}}' },
    });
  });

  it('answers malformed JSON and wrong shapes with BadRequestException 400 and delivers nothing', async () => {
    const before = await subjects(capture);
    const bodies = [
      '{"FromEmailAddress": ',
      'null',
      '[]',
      JSON.stringify({
        FromEmailAddress: SENDER,
        Destination: { ToAddresses: RECIPIENT },
        Content: { Simple: { Subject: { Data: 's' }, Body: {} } },
      }),
      JSON.stringify({ FromEmailAddress: SENDER, Destination: { ToAddresses: [RECIPIENT] } }),
      JSON.stringify({
        FromEmailAddress: SENDER,
        Destination: { ToAddresses: [RECIPIENT] },
        Content: { Simple: { Subject: { Data: 's' }, Body: {} }, Raw: { Data: '' } },
      }),
      JSON.stringify({
        FromEmailAddress: 42,
        Destination: { ToAddresses: [RECIPIENT] },
        Content: { Simple: { Subject: { Data: 's' }, Body: {} } },
      }),
      JSON.stringify({
        FromEmailAddress: 'no-domain',
        Destination: { ToAddresses: [RECIPIENT] },
        Content: { Simple: { Subject: { Data: 's' }, Body: {} } },
      }),
      JSON.stringify({
        Destination: { ToAddresses: [RECIPIENT] },
        Content: { Simple: { Subject: { Data: 's' }, Body: {} } },
      }),
    ];
    for (const body of bodies) {
      const response = await post(capture, '/v2/email/outbound-emails', body);
      expect(response.status, body).toBe(400);
      expect(response.headers.get('x-amzn-errortype'), body).toBe('BadRequestException');
      expect(await response.json()).toMatchObject({ message: expect.any(String) });
    }
    for (const body of [
      '{',
      JSON.stringify({ EmailIdentity: 7 }),
      JSON.stringify({ EmailIdentity: 'not an identity' }),
    ]) {
      const response = await post(capture, '/v2/email/identities', body);
      expect(response.status, body).toBe(400);
      expect(response.headers.get('x-amzn-errortype'), body).toBe('BadRequestException');
    }
    const badEscape = await fetch(`${capture.sesEndpoint}/v2/email/identities/%E0%A4%A`, {
      headers: { authorization: AUTH },
    });
    expect(badEscape.status).toBe(404);
    expect(badEscape.headers.get('x-amzn-errortype')).toBe('NotFoundException');
    expect(await subjects(capture)).toEqual(before);
  });

  // https://docs.aws.amazon.com/ses/latest/dg/quotas.html (in the sandbox, 1 email per second;
  // quotas count recipients) and https://docs.aws.amazon.com/ses/latest/dg/manage-sending-quotas-errors.html
  // (over the rate SES drops the message with "Maximum sending rate exceeded"); SES API v2
  // SendEmail errors: TooManyRequestsException, HTTP 429
  // (https://docs.aws.amazon.com/ses/latest/APIReference-V2/API_SendEmail.html).
  it('keeps to the sandbox rate of 1 email per second: TooManyRequestsException 429 "Maximum sending rate exceeded.", nothing delivered', async () => {
    const single = oneAttempt(capture);
    const simulator = (subject: string, to = ['success@simulator.amazonses.com']) =>
      simple(SENDER, { ToAddresses: to }, subject);
    await single.send(new SendEmailCommand(simulator('rate first')));
    const before = (await client.send(new GetAccountCommand({}))).SendQuota!.SentLast24Hours!;
    expect(await sendError(single, simulator('rate too soon'))).toMatchObject({
      name: 'TooManyRequestsException',
      message: RATE_EXCEEDED,
      $metadata: { httpStatusCode: 429 },
    });
    tick(999);
    expect(await sendError(single, simulator('rate still too soon'))).toMatchObject({
      name: 'TooManyRequestsException',
    });
    tick(1);
    await single.send(new SendEmailCommand(simulator('rate a second later')));
    expect(await subjects(capture)).toEqual(expect.arrayContaining(['rate first', 'rate a second later']));
    expect(await subjects(capture)).not.toContain('rate too soon');
    expect(await subjects(capture)).not.toContain('rate still too soon');
    // Refused sends count against nothing.
    expect((await client.send(new GetAccountCommand({}))).SendQuota!.SentLast24Hours).toBe(before + 1);
    single.destroy();
  });

  it('counts the rate in recipients: a message to 3 holds the next back for 3 seconds', async () => {
    const single = oneAttempt(capture);
    await single.send(
      new SendEmailCommand(
        simple(
          SENDER,
          { ToAddresses: [RECIPIENT, 'x@partner.example'], BccAddresses: ['success@simulator.amazonses.com'] },
          'three at once',
        ),
      ),
    );
    tick(2999);
    expect(await sendError(single, simple(SENDER, { ToAddresses: [RECIPIENT] }, 'after three'))).toMatchObject({
      name: 'TooManyRequestsException',
    });
    tick(1);
    await single.send(new SendEmailCommand(simple(SENDER, { ToAddresses: [RECIPIENT] }, 'after three')));
    expect(await subjects(capture)).toContain('after three');
    single.destroy();
  });

  // The v1 query API answers the same refusal as a `Throttling` error with HTTP 400
  // (https://aws.amazon.com/blogs/messaging-and-targeting/how-to-handle-a-throttling-maximum-sending-rate-exceeded-error/).
  it('answers the SES v1 query API over the rate with Throttling 400 in XML', async () => {
    const form = (subject: string) =>
      new URLSearchParams({
        Action: 'SendEmail',
        Source: SENDER,
        'Destination.ToAddresses.member.1': RECIPIENT,
        'Message.Subject.Data': subject,
        'Message.Body.Text.Data': 'Hi',
      }).toString();
    const urlencoded = { 'content-type': 'application/x-www-form-urlencoded' };
    expect((await post(capture, '/', form('v1 first'), urlencoded)).status).toBe(200);
    const refused = await post(capture, '/', form('v1 too soon'), urlencoded);
    expect(refused.status).toBe(400);
    const xml = await refused.text();
    expect(xml).toContain('<Code>Throttling</Code>');
    expect(xml).toContain(`<Message>${RATE_EXCEEDED}</Message>`);
    expect(await subjects(capture)).not.toContain('v1 too soon');
  });

  // "The message must include at least one recipient email address. The recipient address can
  // be a To: address, a CC: address, or a BCC: address." (SES API reference, SendEmail:
  // https://docs.aws.amazon.com/ses/latest/APIReference/API_SendEmail.html; SES v2 SendEmail:
  // https://docs.aws.amazon.com/ses/latest/APIReference-V2/API_SendEmail.html, BadRequestException 400).
  it('refuses a message without any recipient with BadRequestException 400, using no rate and delivering nothing', async () => {
    const single = oneAttempt(capture);
    const bodyOnly = { Simple: { Subject: { Data: 'nobody' }, Body: { Text: { Data: 'Body' } } } };
    for (const input of [
      { FromEmailAddress: SENDER, Content: bodyOnly },
      { FromEmailAddress: SENDER, Destination: {}, Content: bodyOnly },
      {
        FromEmailAddress: SENDER,
        Destination: { ToAddresses: [], CcAddresses: [], BccAddresses: [] },
        Content: bodyOnly,
      },
      { Content: { Raw: { Data: rawMessage(`From: ${SENDER}\r\nSubject: nobody`) } } },
    ]) {
      expect(await sendError(single, input)).toMatchObject({
        name: 'BadRequestException',
        message: NO_RECIPIENT,
        $metadata: { httpStatusCode: 400 },
      });
    }
    const v1 = await post(
      capture,
      '/',
      new URLSearchParams({
        Action: 'SendEmail',
        Source: SENDER,
        'Message.Subject.Data': 'nobody',
        'Message.Body.Text.Data': 'Hi',
      }).toString(),
      {
        'content-type': 'application/x-www-form-urlencoded',
      },
    );
    expect(v1.status).toBe(400);
    expect(await v1.text()).toContain('<Code>InvalidParameterValue</Code>');
    // A Cc or Bcc recipient alone is enough, and the refusals above used none of the rate.
    await single.send(new SendEmailCommand(simple(SENDER, { BccAddresses: [RECIPIENT] }, 'bcc only')));
    expect(await subjects(capture)).toContain('bcc only');
    expect(await subjects(capture)).not.toContain('nobody');
    single.destroy();
  });

  it('leaves an unsigned send to the capture, which refuses it without delivering', async () => {
    const response = await fetch(`${capture.sesEndpoint}/v2/email/outbound-emails`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(simple(SENDER, { ToAddresses: [RECIPIENT] }, 'unsigned')),
    });
    expect(response.status).toBe(403);
    expect(await subjects(capture)).not.toContain('unsigned');
  });
});

describe('local SES with production access', () => {
  let dataDir: string;
  let capture: MailCapture;
  let client: SESv2Client;
  controlClock();

  beforeAll(async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'portal-ses-production-'));
    ({ capture, client } = await startCapture(dataDir, false));
  });
  afterAll(async () => {
    client.destroy();
    await capture.close();
    await rm(dataDir, { recursive: true, force: true });
  });

  it('delivers to unverified recipients but still needs a verified sender', async () => {
    await client.send(new SendEmailCommand(simple(SENDER, { ToAddresses: ['anyone@example.org'] }, 'production')));
    expect(await subjects(capture)).toContain('production');
    await expect(
      client.send(new SendEmailCommand(simple('x@example.net', { ToAddresses: ['anyone@example.org'] }))),
    ).rejects.toMatchObject({
      name: 'MessageRejected',
      message: refusal('x@example.net'),
    });
    expect(await client.send(new GetAccountCommand({}))).toMatchObject({ ProductionAccessEnabled: true });
  });

  it('keeps to the reported MaxSendRate of 14 emails per second', async () => {
    expect((await client.send(new GetAccountCommand({}))).SendQuota).toMatchObject({ MaxSendRate: 14 });
    const single = oneAttempt(capture);
    const outcomes = [];
    for (let i = 0; i < 15; i += 1)
      outcomes.push(await sendError(single, simple(SENDER, { ToAddresses: ['anyone@example.org'] }, `burst ${i}`)));
    expect(outcomes.slice(0, 14).every((outcome) => (outcome as Error).message === 'SendEmail was accepted')).toBe(
      true,
    );
    expect(outcomes[14]).toMatchObject({ name: 'TooManyRequestsException', message: RATE_EXCEEDED });
    single.destroy();
  });
});

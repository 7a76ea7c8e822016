import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  GetAccountCommand,
  SendEmailCommand,
  SESv2Client,
  type Attachment,
  type SendEmailCommandInput,
} from '@aws-sdk/client-sesv2';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { LOCAL_CREDENTIALS } from '#clients/local-stack.ts';
import { checkMessageSize, mimeBase64Bytes } from '#emulators/ses/attachments.ts';
import { startMailCapture, type MailCapture } from '#emulators/ses/capture.ts';
import { capturedMailListSchema } from '#emulators/ses/messages.ts';

// SES API v2 Attachment (https://docs.aws.amazon.com/ses/latest/APIReference-V2/API_Attachment.html), the
// unsupported attachment types (https://docs.aws.amazon.com/ses/latest/dg/mime-types.html) and the 40 MB message
// size after base64 encoding (https://docs.aws.amazon.com/ses/latest/dg/quotas.html), through the real SDK.

const SENDER = 'reports@tviq.local';
const RECIPIENT = 'owner@tviq.local';

/** A small PDF-like file holding every byte value, CR and LF among them. */
const PDF = Buffer.concat([
  Buffer.from('%PDF-1.7\n%\xe2\xe3\xcf\xd3\n', 'latin1'),
  Buffer.from(Array.from({ length: 256 }, (_, i) => i)),
  Buffer.from(Array.from({ length: 1200 }, (_, i) => (i * 151 + 7) % 256)),
  Buffer.from('\n%%EOF\n'),
]);
const CSV = Buffer.from(
  ['Région,Ventes (€),Évolution', 'Île-de-France,"1 234,5",+3 %', '東京,42,-1 %', ''].join('\r\n'),
);
const CSV_NAME = 'Ventes par région (été).csv';

async function startCapture(dataDir: string) {
  // Production access (14 emails a second): the sandbox's rate is not what these tests are about.
  const capture = await startMailCapture({
    host: '127.0.0.1',
    port: 0,
    apiPort: 0,
    dataDir,
    verifiedIdentities: ['tviq.local'],
    sandbox: false,
  });
  const client = new SESv2Client({
    endpoint: capture.sesEndpoint,
    region: 'us-east-2',
    credentials: LOCAL_CREDENTIALS,
    maxAttempts: 1,
  });
  return { capture, client };
}

function simple(subject: string, attachments: Partial<Attachment>[]): SendEmailCommandInput {
  return {
    FromEmailAddress: SENDER,
    Destination: { ToAddresses: [RECIPIENT] },
    Content: {
      Simple: {
        Subject: { Data: subject },
        Body: { Text: { Data: 'Your dashboard is attached.' } },
        Attachments: attachments as Attachment[],
      },
    },
  };
}

/** A raw MIME message: a text part and one base64 part whose Content-Disposition ends with `nameParameter`. */
function rawMessage(subject: string, nameParameter: string, content: Buffer, type = 'application/pdf'): Uint8Array {
  const boundary = 'portal-boundary-1';
  return Buffer.from(
    [
      `From: Reports <${SENDER}>`,
      `To: ${RECIPIENT}`,
      `Subject: ${subject}`,
      'MIME-Version: 1.0',
      `Content-Type: multipart/mixed; boundary="${boundary}"`,
      '',
      `--${boundary}`,
      'Content-Type: text/plain; charset=utf-8',
      '',
      'Your dashboard is attached.',
      `--${boundary}`,
      `Content-Type: ${type}`,
      'Content-Transfer-Encoding: base64',
      'Content-Disposition: attachment;',
      ` ${nameParameter}`,
      '',
      ...content.toString('base64').match(/.{1,76}/g)!,
      `--${boundary}--`,
      '',
    ].join('\r\n'),
  );
}

async function listed(capture: MailCapture) {
  const response = await fetch(capture.apiUrl);
  expect(response.status).toBe(200);
  return capturedMailListSchema.parse(await response.json());
}

async function messageWithId(capture: MailCapture, id: string | undefined) {
  const message = (await listed(capture)).find((candidate) => candidate.id === id);
  expect(message, `message ${id}`).toBeDefined();
  return message!;
}

const download = (capture: MailCapture, path: string) => fetch(new URL(path, capture.inboxUrl));

const refusalOf = (client: SESv2Client, input: SendEmailCommandInput) =>
  client.send(new SendEmailCommand(input)).then(
    () => new Error('SendEmail was accepted'),
    (error: unknown) => error,
  );

const validation = (member: string, constraint: string, value = 'null') =>
  `1 validation error detected: Value ${value} at 'content.simple.attachments.1.member.${member}' ` +
  `failed to satisfy constraint: Member ${constraint}`;

describe('SES attachments in local mode', () => {
  let dataDir: string;
  let capture: MailCapture;
  let client: SESv2Client;

  beforeAll(async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'portal-ses-attachments-'));
    ({ capture, client } = await startCapture(dataDir));
  });
  afterAll(async () => {
    client.destroy();
    await capture.close();
    await rm(dataDir, { recursive: true, force: true });
  });

  // https://docs.aws.amazon.com/ses/latest/APIReference-V2/API_Attachment.html and
  // https://docs.aws.amazon.com/ses/latest/dg/attachments.html; the inbox and its downloads are the emulator's own.
  it('keeps a PDF and a UTF-8 CSV byte for byte, lists them in the JSON and the inbox, and serves each', async () => {
    const sent = await client.send(
      new SendEmailCommand(
        simple('Weekly dashboard', [
          { FileName: 'dashboard.pdf', ContentType: 'application/pdf', RawContent: PDF },
          {
            FileName: CSV_NAME,
            ContentType: 'text/csv; charset=utf-8',
            ContentDisposition: 'ATTACHMENT',
            ContentDescription: 'Sales by region',
            ContentTransferEncoding: 'QUOTED_PRINTABLE',
            RawContent: CSV,
          },
        ]),
      ),
    );
    const message = await messageWithId(capture, sent.MessageId);
    expect(message.attachments).toEqual([
      {
        fileName: 'dashboard.pdf',
        contentType: 'application/pdf',
        disposition: 'attachment',
        size: PDF.length,
        contentBase64: PDF.toString('base64'),
      },
      {
        fileName: CSV_NAME,
        contentType: 'text/csv; charset=utf-8',
        disposition: 'attachment',
        size: CSV.length,
        contentBase64: CSV.toString('base64'),
      },
    ]);
    expect(Buffer.from(message.attachments[0]!.contentBase64, 'base64').equals(PDF)).toBe(true);

    const page = await (await fetch(capture.inboxUrl)).text();
    const id = encodeURIComponent(sent.MessageId!);
    expect(page).toContain('<dt>Attachments</dt>');
    expect(page).toContain(
      `<li><a href="/messages/${id}/attachments/1" download="dashboard.pdf">dashboard.pdf</a> ` +
        `<span class="meta">application/pdf, <data value="${PDF.length}">1.4 KB</data></span></li>`,
    );
    expect(page).toContain(
      `<a href="/messages/${id}/attachments/2" download="${CSV_NAME}">${CSV_NAME}</a> ` +
        `<span class="meta">text/csv; charset=utf-8, <data value="${CSV.length}">${CSV.length} bytes</data>`,
    );

    const pdf = await download(capture, `/messages/${id}/attachments/1`);
    expect(pdf.status).toBe(200);
    expect(pdf.headers.get('content-type')).toBe('application/pdf');
    expect(pdf.headers.get('content-disposition')).toBe(
      `attachment; filename="dashboard.pdf"; filename*=UTF-8''dashboard.pdf`,
    );
    expect(pdf.headers.get('x-content-type-options')).toBe('nosniff');
    expect(Buffer.from(await pdf.arrayBuffer()).equals(PDF)).toBe(true);

    const csv = await download(capture, `/messages/${id}/attachments/2`);
    expect(csv.headers.get('content-type')).toBe('text/csv; charset=utf-8');
    const disposition = csv.headers.get('content-disposition')!;
    expect(disposition).toBe(
      `attachment; filename="Ventes par r_gion (_t_).csv"; ` +
        `filename*=UTF-8''Ventes%20par%20r%C3%A9gion%20%28%C3%A9t%C3%A9%29.csv`,
    );
    expect(decodeURIComponent(disposition.split("UTF-8''")[1]!)).toBe(CSV_NAME);
    expect(Buffer.from(await csv.arrayBuffer()).equals(CSV)).toBe(true);
  });

  // ContentDisposition INLINE and ContentType
  // (https://docs.aws.amazon.com/ses/latest/APIReference-V2/API_Attachment.html).
  it('keeps an inline attachment as inline, with a generic type when the sender gives none', async () => {
    const sent = await client.send(
      new SendEmailCommand(
        simple('Inline logo', [
          { FileName: 'logo.png', ContentDisposition: 'INLINE', ContentId: 'logo', RawContent: PDF.subarray(0, 40) },
        ]),
      ),
    );
    const [attachment] = (await messageWithId(capture, sent.MessageId)).attachments;
    expect(attachment).toMatchObject({
      fileName: 'logo.png',
      contentType: 'application/octet-stream',
      disposition: 'inline',
      size: 40,
    });
    expect(await (await fetch(capture.inboxUrl)).text()).toContain('<data value="40">40 bytes</data>, inline</span>');
  });

  // SendEmail's members (https://docs.aws.amazon.com/ses/latest/APIReference-V2/API_SendEmail.html) and
  // Message.Headers (https://docs.aws.amazon.com/ses/latest/APIReference-V2/API_Message.html) reach the capture
  // as sent. aws-ses-v2-local keeps a Simple message's headers (its /store answer shows them) but stores no
  // EmailTags, ConfigurationSetName or ListManagementOptions, so of those members only the headers can be seen.
  it('hands the capture the whole SendEmail request, so a Simple message keeps its custom headers', async () => {
    const input = simple('With headers', [{ FileName: 'dashboard.pdf', RawContent: PDF }]);
    input.Content!.Simple!.Headers = [{ Name: 'X-Portal-Subscription', Value: 'weekly-sales' }];
    const sent = await client.send(
      new SendEmailCommand({
        ...input,
        EmailTags: [{ Name: 'subscription', Value: 'weekly-sales' }],
        ConfigurationSetName: 'portal-deliveries',
        ListManagementOptions: { ContactListName: 'owners' },
      }),
    );
    const store = (await (await fetch(`${capture.captureEndpoint}/store`)).json()) as {
      emails: { messageId: string; headers?: unknown }[];
    };
    expect(store.emails.find((email) => email.messageId === sent.MessageId)?.headers).toEqual([
      { name: 'X-Portal-Subscription', value: 'weekly-sales' },
    ]);
    expect((await messageWithId(capture, sent.MessageId)).attachments).toHaveLength(1);
  });

  // https://docs.aws.amazon.com/ses/latest/APIReference-V2/API_RawMessage.html; the file name is encoded as
  // RFC 2231 says.
  it('captures the attachment of a raw MIME message, its RFC 2231 file name decoded', async () => {
    const sent = await client.send(
      new SendEmailCommand({
        Content: { Raw: { Data: rawMessage('Raw dashboard', "filename*=UTF-8''tableau%20de%20bord.pdf", PDF) } },
      }),
    );
    const message = await messageWithId(capture, sent.MessageId);
    expect(message.attachments).toEqual([
      {
        fileName: 'tableau de bord.pdf',
        contentType: 'application/pdf',
        disposition: 'attachment',
        size: PDF.length,
        contentBase64: PDF.toString('base64'),
      },
    ]);
    const file = await download(capture, `/messages/${encodeURIComponent(message.id)}/attachments/1`);
    expect(file.headers.get('content-disposition')).toBe(
      `attachment; filename="tableau de bord.pdf"; filename*=UTF-8''tableau%20de%20bord.pdf`,
    );
    expect(Buffer.from(await file.arrayBuffer()).equals(PDF)).toBe(true);
  });

  // The emulator's own inbox, which no AWS page documents (SES keeps no copy of the mail it sends).
  it('answers 404 for an unknown message or attachment', async () => {
    const [message] = await listed(capture);
    const id = encodeURIComponent(message!.id);
    for (const path of [
      '/messages/ses-000000000/attachments/1',
      `/messages/${id}/attachments/${message!.attachments.length + 1}`,
      `/messages/${id}/attachments/0`,
      `/messages/${id}/attachments/first`,
      `/messages/${id}`,
      '/messages/%E0%A4%A/attachments/1',
    ]) {
      const response = await download(capture, path);
      expect(response.status, path).toBe(404);
      expect(response.headers.get('content-type'), path).toBe('text/plain; charset=utf-8');
    }
  });

  // https://docs.aws.amazon.com/ses/latest/APIReference-V2/API_Attachment.html (constraints),
  // https://docs.aws.amazon.com/ses/latest/dg/mime-types.html (refused extensions) and the errors of
  // https://docs.aws.amazon.com/ses/latest/APIReference-V2/API_SendEmail.html.
  it('refuses every attachment SES refuses, with its error and message, and captures or counts none', async () => {
    const before = await listed(capture);
    const sentBefore = (await client.send(new GetAccountCommand({}))).SendQuota!.SentLast24Hours;
    const file = { FileName: 'dashboard.pdf', RawContent: PDF };
    const cases: [Partial<Attachment>[], string, string][] = [
      [[{ RawContent: PDF }], 'BadRequestException', validation('fileName', 'must not be null')],
      [[{ FileName: 'dashboard.pdf' }], 'BadRequestException', validation('rawContent', 'must not be null')],
      [
        [{ ...file, FileName: `${'a'.repeat(252)}.pdf` }],
        'BadRequestException',
        validation('fileName', 'must have length less than or equal to 255', `'${'a'.repeat(252)}.pdf'`),
      ],
      [
        [{ ...file, ContentDisposition: 'EMBEDDED' as Attachment['ContentDisposition'] }],
        'BadRequestException',
        validation('contentDisposition', 'must satisfy enum value set: [ATTACHMENT, INLINE]', "'EMBEDDED'"),
      ],
      [
        [{ ...file, ContentTransferEncoding: 'BINARY' as Attachment['ContentTransferEncoding'] }],
        'BadRequestException',
        validation(
          'contentTransferEncoding',
          'must satisfy enum value set: [BASE64, QUOTED_PRINTABLE, SEVEN_BIT]',
          "'BINARY'",
        ),
      ],
      [
        [{ ...file, ContentId: '' }],
        'BadRequestException',
        validation('contentId', 'must have length greater than or equal to 1', "''"),
      ],
      [
        [{ ...file, ContentType: `application/${'x'.repeat(67)}` }],
        'BadRequestException',
        validation('contentType', 'must have length less than or equal to 78', `'application/${'x'.repeat(67)}'`),
      ],
      [
        [{ ...file, ContentDescription: 'd'.repeat(1001) }],
        'BadRequestException',
        validation('contentDescription', 'must have length less than or equal to 1000', `'${'d'.repeat(1001)}'`),
      ],
      [
        [file, { RawContent: PDF, ContentDisposition: 'NONE' as Attachment['ContentDisposition'] }],
        'BadRequestException',
        "2 validation errors detected: Value null at 'content.simple.attachments.2.member.fileName' failed to " +
          "satisfy constraint: Member must not be null; Value 'NONE' at 'content.simple.attachments.2.member." +
          "contentDisposition' failed to satisfy constraint: Member must satisfy enum value set: [ATTACHMENT, INLINE]",
      ],
      // The wording "Unsupported attachment type" is the emulator's own choice (nearest page:
      // https://docs.aws.amazon.com/ses/latest/dg/mime-types.html, which lists the extensions, not the message).
      [
        [file, { FileName: 'setup.exe', RawContent: PDF }],
        'MessageRejected',
        "Unsupported attachment type: 'setup.exe' (.exe files are refused).",
      ],
      [
        [{ FileName: 'Report.PDF.JS', RawContent: CSV }],
        'MessageRejected',
        "Unsupported attachment type: 'Report.PDF.JS' (.js files are refused).",
      ],
      // Dropping trailing dots before reading the extension is the emulator's own choice (nearest page:
      // https://docs.aws.amazon.com/ses/latest/dg/mime-types.html, which says nothing of them).
      [
        [{ FileName: 'macro.vbs.', RawContent: CSV }],
        'MessageRejected',
        "Unsupported attachment type: 'macro.vbs.' (.vbs files are refused).",
      ],
    ];
    for (const [attachments, name, message] of cases) {
      expect(await refusalOf(client, simple('refused attachment', attachments)), message).toMatchObject({
        name,
        message,
        $metadata: { httpStatusCode: 400 },
      });
    }

    // Content that is not base64, as a caller of the HTTPS interface could send it. The wording is the
    // emulator's own choice (nearest page: https://docs.aws.amazon.com/ses/latest/APIReference-V2/API_Attachment.html,
    // which says RawContent is base64-encoded).
    const response = await fetch(`${capture.sesEndpoint}/v2/email/outbound-emails`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        authorization: 'AWS4-HMAC-SHA256 Credential=local/20250101/us-east-2/ses/aws4_request, Signature=00',
      },
      body: JSON.stringify({
        ...simple('refused attachment', []),
        Content: {
          Simple: {
            Subject: { Data: 'refused attachment' },
            Body: { Text: { Data: 'x' } },
            Attachments: [{ FileName: 'a.pdf', RawContent: 'not base64!' }],
          },
        },
      }),
    });
    expect(response.status).toBe(400);
    expect(response.headers.get('x-amzn-errortype')).toBe('BadRequestException');
    expect(await response.json()).toEqual({
      message: validation('rawContent', 'must be base64-encoded binary data', '(not shown)'),
    });

    // In a raw message, a part's name decides too, however it is written.
    for (const [parameter, refused] of [
      ['filename="setup.exe"', 'setup.exe'],
      ['filename="=?UTF-8?B?ZmFjdHVyZS5leGU=?="', 'facture.exe'],
      ["filename*0*=UTF-8''r%C3%A9sum%C3%A9.; filename*1=bat", 'résumé.bat'],
    ] as const) {
      expect(
        await refusalOf(client, { Content: { Raw: { Data: rawMessage('refused raw', parameter, PDF) } } }),
        parameter,
      ).toMatchObject({ name: 'MessageRejected', message: expect.stringContaining(`'${refused}'`) });
    }

    expect(await listed(capture)).toEqual(before);
    expect((await client.send(new GetAccountCommand({}))).SendQuota!.SentLast24Hours).toBe(sentBefore);
  });
});

describe('the 40 MB message size of SES v2', () => {
  let dataDir: string;
  let capture: MailCapture;
  let client: SESv2Client;

  beforeAll(async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'portal-ses-size-'));
    ({ capture, client } = await startCapture(dataDir));
  });
  afterAll(async () => {
    client.destroy();
    await capture.close();
    await rm(dataDir, { recursive: true, force: true });
  });

  // "if you attach a 5MB file, the attachment size in the email after MIME encoding will be ~6.85MB (about 137% of the
  // original file size)" (https://docs.aws.amazon.com/ses/latest/dg/manage-sending-quotas.html). The limits:
  // https://docs.aws.amazon.com/ses/latest/dg/quotas.html. The v2 refusal as BadRequestException is the emulator's own
  // choice (nearest page: https://docs.aws.amazon.com/ses/latest/APIReference-V2/API_SendEmail.html).
  it('counts data base64-encoded in lines, up to 40 MB (41943040 bytes) in v2 and 10 MB in v1', () => {
    expect(mimeBase64Bytes(5 * 1024 * 1024) / (1024 * 1024)).toBeCloseTo(6.85, 1);
    expect(() => checkMessageSize(41_943_040, 'v2')).not.toThrow();
    expect(() => checkMessageSize(41_943_041, 'v2')).toThrow(
      expect.objectContaining({
        type: 'BadRequestException',
        message: "Message length is more than 41943040 bytes long: '41943041'.",
      }),
    );
    expect(() => checkMessageSize(10_485_760, 'v1')).not.toThrow();
    expect(() => checkMessageSize(10_485_761, 'v1')).toThrow(
      expect.objectContaining({
        type: 'InvalidParameterValue',
        message: "Message length is more than 10485760 bytes long: '10485761'.",
      }),
    );
  });

  // https://docs.aws.amazon.com/ses/latest/dg/quotas.html; BadRequestException is the emulator's own choice
  // (nearest page: https://docs.aws.amazon.com/ses/latest/APIReference-V2/API_SendEmail.html).
  it('refuses a message whose attachments together are over 40 MB once encoded, and captures nothing', async () => {
    // 30.7 MB in all: about 42 MB once encoded, just over the limit.
    const half = Buffer.alloc(15_350_000, 1);
    const over = await refusalOf(
      client,
      simple('too large', [
        { FileName: 'first.pdf', RawContent: half },
        { FileName: 'second.pdf', RawContent: half },
      ]),
    );
    expect(over).toMatchObject({
      name: 'BadRequestException',
      message: expect.stringMatching(/^Message length is more than 41943040 bytes long: '\d+'\.$/),
      $metadata: { httpStatusCode: 400 },
    });
    expect(await listed(capture)).toEqual([]);
  });

  // The 40 MB of https://docs.aws.amazon.com/ses/latest/dg/quotas.html, past what aws-ses-v2-local reads itself.
  it('accepts a message past the 25 MB that aws-ses-v2-local reads over HTTP', async () => {
    const large = Buffer.alloc(20 * 1024 * 1024, 7);
    const sent = await client.send(
      new SendEmailCommand(simple('large', [{ FileName: 'large.pdf', RawContent: large }])),
    );
    // The inbox page names the size without the 27 MB of the JSON list.
    expect(await (await fetch(capture.inboxUrl)).text()).toContain(
      `<a href="/messages/${sent.MessageId}/attachments/1" download="large.pdf">large.pdf</a> ` +
        `<span class="meta">application/octet-stream, <data value="${large.length}">20.0 MB</data></span>`,
    );
  });
});

describe('captured mail kept in the data directory', () => {
  let dataDir: string;
  let capture: MailCapture | undefined;
  let client: SESv2Client | undefined;

  beforeAll(async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'portal-ses-kept-'));
  });
  afterEach(async () => {
    client?.destroy();
    await capture?.close();
    capture = undefined;
  });
  afterAll(async () => {
    await rm(dataDir, { recursive: true, force: true });
  });

  // The capture's data directory is the emulator's own: no AWS page documents it.
  it('loads messages captured before attachments were listed, and keeps attachments across a restart', async () => {
    const older = {
      messageId: 'ses-100000001',
      from: SENDER,
      replyTo: [],
      destination: { to: [RECIPIENT], cc: [], bcc: [] },
      subject: 'Captured before attachments',
      body: { text: 'Hello' },
      at: 1_700_000_000,
    };
    await writeFile(join(dataDir, 'mail.json'), JSON.stringify([older]));
    ({ capture, client } = await startCapture(dataDir));
    expect(await listed(capture)).toMatchObject([{ id: 'ses-100000001', attachments: [] }]);
    const page = await fetch(capture.inboxUrl);
    expect(page.status).toBe(200);
    expect(await page.text()).not.toContain('<dt>Attachments</dt>');
    expect((await download(capture, '/messages/ses-100000001/attachments/1')).status).toBe(404);

    await client.send(new SendEmailCommand(simple('Kept', [{ FileName: 'dashboard.pdf', RawContent: PDF }])));
    client.destroy();
    await capture.close();
    ({ capture, client } = await startCapture(dataDir));
    const [kept, old] = await listed(capture);
    expect(old).toMatchObject({ id: 'ses-100000001', attachments: [] });
    expect(kept).toMatchObject({ subject: 'Kept', attachments: [{ contentBase64: PDF.toString('base64') }] });
  });
});

import { z } from 'zod';
import {
  attachmentListSchema,
  builtMessageBytes,
  checkAttachments,
  checkFileNames,
  checkMessageSize,
} from './attachments.ts';
import { SesError, badRequest } from './errors.ts';
import { addressesInHeader, mailboxAddress } from './identities.ts';
import { messageHeaders, rawPartFileNames } from './raw-mime.ts';

/**
 * What a send request asks of SES, read the way SES reads it: SendEmail and SendBulkEmail (v2)
 * and the v1 query API's SendEmail and SendRawEmail, each as the sender and recipients it
 * mails (raw messages by their headers), once its attachments and size have passed SES's
 * rules (attachments.ts).
 */

/**
 * A message with no recipient at all. The rule is documented ("The message must include at
 * least one recipient email address", SES API reference, SendEmail); the wording is SES's own
 * for a message without recipients (InvalidParameterValue in the v1 query API; v2 names the
 * same refusal BadRequestException).
 */
const NO_RECIPIENT = "Missing required header 'To'.";
const noRecipient = (queryApi: boolean) =>
  new SesError(queryApi ? 'InvalidParameterValue' : 'BadRequestException', 400, NO_RECIPIENT);

const charsetData = z.object({ Data: z.string(), Charset: z.string().optional() });
const addressList = z.array(z.string()).optional();
const destinationSchema = z.object({
  ToAddresses: addressList,
  CcAddresses: addressList,
  BccAddresses: addressList,
});
const templateSchema = z
  .object({
    TemplateContent: z
      .object({ Subject: z.string().nullish(), Text: z.string().nullish(), Html: z.string().nullish() })
      .loose()
      .nullish(),
    Attachments: attachmentListSchema,
  })
  .loose();
const sendEmailSchema = z.object({
  FromEmailAddress: z.string().optional(),
  Destination: destinationSchema.optional(),
  ReplyToAddresses: addressList,
  Content: z
    .object({
      Simple: z
        .object({
          Subject: charsetData,
          Body: z.object({ Text: charsetData.optional(), Html: charsetData.optional() }),
          Attachments: attachmentListSchema,
        })
        .optional(),
      Raw: z.object({ Data: z.string() }).optional(),
      Template: templateSchema.optional(),
    })
    .refine((content) => [content.Simple, content.Raw, content.Template].filter(Boolean).length === 1, {
      message: 'Content must hold exactly one of Simple, Raw or Template',
    }),
});
const sendBulkEmailSchema = z.object({
  FromEmailAddress: z.string(),
  DefaultContent: z.object({ Template: templateSchema.optional() }).loose(),
  BulkEmailEntries: z.array(z.object({ Destination: destinationSchema })).min(1),
});
export const createIdentitySchema = z.object({ EmailIdentity: z.string().min(1) });

/** A JSON request body as sent, and as its schema reads it (members the schema does not name left out). */
interface ParsedJson<T> {
  readonly json: unknown;
  readonly data: T;
}

/** The JSON body of a request, or BadRequestException for malformed JSON or a body of the wrong shape. */
export function parseJson<T>(body: Buffer, schema: z.ZodType<T>): ParsedJson<T> {
  let json: unknown;
  try {
    json = JSON.parse(body.toString('utf8'));
  } catch {
    throw badRequest('Request body is not valid JSON');
  }
  const result = schema.safeParse(json);
  if (!result.success) {
    const issue = result.error.issues[0];
    throw badRequest(
      `Invalid request: ${issue ? `${issue.path.join('.') || 'body'}: ${issue.message}` : 'wrong shape'}`,
    );
  }
  return { json, data: result.data };
}

export function addressOf(value: string): string {
  const address = mailboxAddress(value);
  if (!address) throw badRequest(`Missing final '@domain' in ${JSON.stringify(value)}`);
  return address;
}

const headerAddresses = (headers: Map<string, string[]>, ...names: string[]) =>
  names.flatMap((name) => (headers.get(name) ?? []).flatMap(addressesInHeader));

export interface Mailing {
  /** As written in the request, so the refusal names them as the sender wrote them. */
  readonly senders: readonly string[];
  readonly recipients: readonly string[];
  /**
   * The JSON body as sent, for delivery in this process (SendEmail only): every member SES takes, those
   * this module does not read (Content.Simple.Headers, EmailTags, ConfigurationSetName, ...) included.
   */
  readonly request?: unknown;
}

/** A raw message (already MIME-encoded) refused for its size or for a part's file extension. */
function checkRawMessage(raw: Buffer, api: 'v1' | 'v2'): void {
  checkMessageSize(raw.length, api);
  checkFileNames(rawPartFileNames(raw));
}

type Template = z.infer<typeof templateSchema>;
type Attachments = z.infer<typeof attachmentListSchema>;

/** The size and file names of a message SES builds (Simple or Template content), its fields already checked. */
function checkBuiltMessage(texts: readonly (string | null | undefined)[], attachments: Attachments): void {
  checkMessageSize(builtMessageBytes(texts, attachments), 'v2');
  checkFileNames((attachments ?? []).map((attachment) => attachment.FileName ?? ''));
}

/** A Template content, checked as a Simple content is (its inline parts counted unrendered). */
function checkTemplate(template: Template, at: string): void {
  checkAttachments(template.Attachments, at);
  const parts = template.TemplateContent;
  checkBuiltMessage([parts?.Subject, parts?.Text, parts?.Html], template.Attachments);
}

function destinationAddresses(destination: z.infer<typeof destinationSchema> | undefined): string[] {
  return [
    ...(destination?.ToAddresses ?? []),
    ...(destination?.CcAddresses ?? []),
    ...(destination?.BccAddresses ?? []),
  ];
}

/** The mailing, refused when it names no recipient at all. */
function withRecipients(mailing: Mailing, queryApi = false): Mailing {
  if (mailing.recipients.length === 0) throw noRecipient(queryApi);
  return mailing;
}

export function sendEmailMailing(body: Buffer): Mailing {
  const { json, data: request } = parseJson(body, sendEmailSchema);
  const { Simple: simple, Raw: raw, Template: template } = request.Content;
  if (simple) checkAttachments(simple.Attachments, 'content.simple.attachments');
  const explicit = request.FromEmailAddress === undefined ? [] : [request.FromEmailAddress];
  const recipients = destinationAddresses(request.Destination);
  if (raw) {
    const message = Buffer.from(raw.Data, 'base64');
    // A raw message names its sender and, without Destination, its recipients in its headers.
    const headers = messageHeaders(message);
    const senders = [...explicit, ...headerAddresses(headers, 'from', 'sender')];
    if (senders.length === 0) throw badRequest('The raw message has no From address');
    const mailing = withRecipients({
      senders,
      recipients: request.Destination ? recipients : headerAddresses(headers, 'to', 'cc', 'bcc'),
      request: json,
    });
    checkRawMessage(message, 'v2');
    return mailing;
  }
  if (explicit.length === 0) throw badRequest('FromEmailAddress is required');
  const mailing = withRecipients({ senders: explicit, recipients, request: json });
  if (simple)
    checkBuiltMessage([simple.Subject.Data, simple.Body.Text?.Data, simple.Body.Html?.Data], simple.Attachments);
  if (template) checkTemplate(template, 'content.template.attachments');
  return mailing;
}

export function sendBulkEmailMailing(body: Buffer): Mailing {
  const request = parseJson(body, sendBulkEmailSchema).data;
  const template = request.DefaultContent.Template;
  if (template) checkTemplate(template, 'defaultContent.template.attachments');
  for (const entry of request.BulkEmailEntries)
    if (destinationAddresses(entry.Destination).length === 0) throw noRecipient(false);
  // Checked for the whole call: per-entry results for refused recipients are not modelled.
  return {
    senders: [request.FromEmailAddress],
    recipients: request.BulkEmailEntries.flatMap((entry) => destinationAddresses(entry.Destination)),
  };
}

/** SES v1 (query API) SendEmail / SendRawEmail, so the older API is no way around the sandbox. */
export function v1Mailing(params: URLSearchParams): Mailing | undefined {
  const action = params.get('Action');
  if (action !== 'SendEmail' && action !== 'SendRawEmail') return undefined;
  const listed = (prefix: RegExp) =>
    [...params.entries()].filter(([key]) => prefix.test(key)).map(([, value]) => value);
  const source = params.get('Source');
  if (action === 'SendEmail') {
    if (!source) throw badRequest('Source is required');
    return withRecipients(
      { senders: [source], recipients: listed(/^Destination\.(To|Cc|Bcc)Addresses\.member\.\d+$/) },
      true,
    );
  }
  const message = Buffer.from(params.get('RawMessage.Data') ?? '', 'base64');
  const headers = messageHeaders(message);
  const senders = [...(source ? [source] : []), ...headerAddresses(headers, 'from', 'sender')];
  if (senders.length === 0) throw badRequest('The raw message has no From address');
  const destinations = listed(/^Destinations\.member\.\d+$/);
  const mailing = withRecipients(
    { senders, recipients: destinations.length > 0 ? destinations : headerAddresses(headers, 'to', 'cc', 'bcc') },
    true,
  );
  checkRawMessage(message, 'v1');
  return mailing;
}

import { z } from 'zod';
import { addressesInHeader, mailboxAddress } from './identities.ts';

/**
 * What a send request asks of SES, read the way SES reads it: SendEmail and SendBulkEmail (v2)
 * and the v1 query API's SendEmail and SendRawEmail, each as the sender and recipients it
 * mails (raw messages by their headers); and the error SES answers a bad request with.
 */
export class SesError extends Error {
  constructor(
    readonly type: string,
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

export const badRequest = (message: string) => new SesError('BadRequestException', 400, message);

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
        })
        .optional(),
      Raw: z.object({ Data: z.string() }).optional(),
      Template: z.object({}).loose().optional(),
    })
    .refine((content) => [content.Simple, content.Raw, content.Template].filter(Boolean).length === 1, {
      message: 'Content must hold exactly one of Simple, Raw or Template',
    }),
});
const sendBulkEmailSchema = z.object({
  FromEmailAddress: z.string(),
  DefaultContent: z.object({}).loose(),
  BulkEmailEntries: z.array(z.object({ Destination: destinationSchema })).min(1),
});
export const createIdentitySchema = z.object({ EmailIdentity: z.string().min(1) });

/** The JSON body of a request, or BadRequestException for malformed JSON or a body of the wrong shape. */
export function parseJson<T>(body: Buffer, schema: z.ZodType<T>): T {
  let value: unknown;
  try {
    value = JSON.parse(body.toString('utf8'));
  } catch {
    throw badRequest('Request body is not valid JSON');
  }
  const result = schema.safeParse(value);
  if (!result.success) {
    const issue = result.error.issues[0];
    throw badRequest(
      `Invalid request: ${issue ? `${issue.path.join('.') || 'body'}: ${issue.message}` : 'wrong shape'}`,
    );
  }
  return result.data;
}

export function addressOf(value: string): string {
  const address = mailboxAddress(value);
  if (!address) throw badRequest(`Missing final '@domain' in ${JSON.stringify(value)}`);
  return address;
}

/** Headers of a raw MIME message (folded lines joined), by lower-case name. */
function rawHeaders(base64: string): Map<string, string[]> {
  const text = Buffer.from(base64, 'base64').toString('utf8');
  const end = text.search(/\r?\n\r?\n/);
  const lines = (end < 0 ? text : text.slice(0, end)).replace(/\r?\n[ \t]+/g, ' ').split(/\r?\n/);
  const headers = new Map<string, string[]>();
  for (const line of lines) {
    const colon = line.indexOf(':');
    if (colon <= 0) continue;
    const name = line.slice(0, colon).trim().toLowerCase();
    headers.set(name, [...(headers.get(name) ?? []), line.slice(colon + 1).trim()]);
  }
  return headers;
}

const headerAddresses = (headers: Map<string, string[]>, ...names: string[]) =>
  names.flatMap((name) => (headers.get(name) ?? []).flatMap(addressesInHeader));

export interface Mailing {
  /** As written in the request, so the refusal names them as the sender wrote them. */
  readonly senders: readonly string[];
  readonly recipients: readonly string[];
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
  const request = parseJson(body, sendEmailSchema);
  const explicit = request.FromEmailAddress === undefined ? [] : [request.FromEmailAddress];
  const recipients = destinationAddresses(request.Destination);
  if (request.Content.Raw) {
    // A raw message names its sender and, without Destination, its recipients in its headers.
    const headers = rawHeaders(request.Content.Raw.Data);
    const senders = [...explicit, ...headerAddresses(headers, 'from', 'sender')];
    if (senders.length === 0) throw badRequest('The raw message has no From address');
    return withRecipients({
      senders,
      recipients: request.Destination ? recipients : headerAddresses(headers, 'to', 'cc', 'bcc'),
    });
  }
  if (explicit.length === 0) throw badRequest('FromEmailAddress is required');
  return withRecipients({ senders: explicit, recipients });
}

export function sendBulkEmailMailing(body: Buffer): Mailing {
  const request = parseJson(body, sendBulkEmailSchema);
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
  const headers = rawHeaders(params.get('RawMessage.Data') ?? '');
  const senders = [...(source ? [source] : []), ...headerAddresses(headers, 'from', 'sender')];
  if (senders.length === 0) throw badRequest('The raw message has no From address');
  const destinations = listed(/^Destinations\.member\.\d+$/);
  return withRecipients(
    { senders, recipients: destinations.length > 0 ? destinations : headerAddresses(headers, 'to', 'cc', 'bcc') },
    true,
  );
}

import { z } from 'zod';
import { SesError, badRequest, messageRejected } from './errors.ts';

/**
 * Attachments as SES takes them, and the rules it documents for them:
 * - SES API v2 `Attachment` (https://docs.aws.amazon.com/ses/latest/APIReference-V2/API_Attachment.html):
 *   FileName required, at most 255 characters; RawContent required (base64 in the JSON the SDK sends);
 *   ContentDisposition ATTACHMENT | INLINE; ContentDescription at most 1000 characters; ContentId and
 *   ContentType 1 to 78 characters; ContentTransferEncoding BASE64 | QUOTED_PRINTABLE | SEVEN_BIT.
 *   "Working with email attachments in SES" (https://docs.aws.amazon.com/ses/latest/dg/attachments.html):
 *   ATTACHMENT and SEVEN_BIT are the defaults; a message holds any number of attachments up to its size limit
 *   (no count is documented, so none is enforced here).
 * - The file extensions SES refuses, in a message it builds and in a raw MIME message alike
 *   ("Amazon SES unsupported attachment types", https://docs.aws.amazon.com/ses/latest/dg/mime-types.html).
 * - The maximum message size, attachments included, "after base64 encoding": 40 MB with the v2 API, 10 MB
 *   with the v1 API ("Service quotas in Amazon SES", https://docs.aws.amazon.com/ses/latest/dg/quotas.html).
 */

/** https://docs.aws.amazon.com/ses/latest/dg/mime-types.html, as listed there. */
const BLOCKED_EXTENSIONS = new Set(
  [
    'ade adp app asp bas bat cer chm cmd com cpl crt csh der exe fxp gadget hlp hta inf ins isp its js jse ksh',
    'lib lnk mad maf mag mam maq mar mas mat mau mav maw mda mdb mde mdt mdw mdz msc msh msh1 msh2 mshxml',
    'msh1xml msh2xml msi msp mst ops pcd pif plg prf prg reg scf scr sct shb shs sys ps1 ps1xml ps2 ps2xml',
    'psc1 psc2 tmp url vb vbe vbs vps vsmacros vss vst vsw vxd ws wsc wsf wsh xnk',
  ]
    .join(' ')
    .split(' '),
);

/**
 * 40 MB and 10 MB as SES counts them: the v1 API's refusal names 10485760 bytes ("Message length is more than
 * 10485760 bytes long: '12078147'.", InvalidParameterValue, as reported in aws/aws-sdk-go-v2 issue 1774).
 */
const MAX_MESSAGE_BYTES = { v2: 40 * 1024 * 1024, v1: 10 * 1024 * 1024 } as const;

const DISPOSITIONS = ['ATTACHMENT', 'INLINE'] as const;
const TRANSFER_ENCODINGS = ['BASE64', 'QUOTED_PRINTABLE', 'SEVEN_BIT'] as const;

/** An attachment as the JSON holds it; the API reference's constraints are checked by `checkAttachments`. */
const attachmentSchema = z.object({
  RawContent: z.string().nullish(),
  FileName: z.string().nullish(),
  ContentDisposition: z.string().nullish(),
  ContentDescription: z.string().nullish(),
  ContentId: z.string().nullish(),
  ContentTransferEncoding: z.string().nullish(),
  ContentType: z.string().nullish(),
});
type AttachmentInput = z.infer<typeof attachmentSchema>;
export const attachmentListSchema = z.array(attachmentSchema).nullish();

/** Standard base64 with its padding, checked without a backtracking pattern (the content may be 50 MB). */
function isBase64(value: string): boolean {
  if (value.length % 4 !== 0 || /[^A-Za-z0-9+/=]/.test(value)) return false;
  const padding = value.indexOf('=');
  return padding === -1 || (padding >= value.length - 2 && /^=+$/.test(value.slice(padding)));
}

/**
 * The problems of one attachment, each worded as AWS words a request that fails its model's constraints
 * ("Value 'X' at 'content.simple.attachments.1.member.fileName' failed to satisfy constraint: ...").
 */
function fieldProblems(attachment: AttachmentInput, at: string): string[] {
  const problems: string[] = [];
  // The value as AWS shows it: quoted, or null when it is missing.
  const fail = (member: string, shown: string, constraint: string) =>
    problems.push(`Value ${shown} at '${at}.${member}' failed to satisfy constraint: Member ${constraint}`);
  const length = (member: string, value: string | null | undefined, min: number, max: number) => {
    if (value == null) return;
    if (value.length < min) fail(member, `'${value}'`, `must have length greater than or equal to ${min}`);
    if (value.length > max) fail(member, `'${value}'`, `must have length less than or equal to ${max}`);
  };
  const oneOf = (member: string, value: string | null | undefined, allowed: readonly string[]) => {
    if (value != null && !allowed.includes(value))
      fail(member, `'${value}'`, `must satisfy enum value set: [${allowed.join(', ')}]`);
  };
  if (attachment.RawContent == null) fail('rawContent', 'null', 'must not be null');
  // The content itself is not repeated: it may be megabytes long. The wording is the emulator's own: the
  // Attachment page (API_Attachment.html) says RawContent is base64-encoded but documents no refusal for it.
  else if (!isBase64(attachment.RawContent)) fail('rawContent', '(not shown)', 'must be base64-encoded binary data');
  if (attachment.FileName == null) fail('fileName', 'null', 'must not be null');
  length('fileName', attachment.FileName, 0, 255);
  oneOf('contentDisposition', attachment.ContentDisposition, DISPOSITIONS);
  length('contentDescription', attachment.ContentDescription, 0, 1000);
  length('contentId', attachment.ContentId, 1, 78);
  oneOf('contentTransferEncoding', attachment.ContentTransferEncoding, TRANSFER_ENCODINGS);
  length('contentType', attachment.ContentType, 1, 78);
  return problems;
}

/**
 * The extension SES would refuse a file name for, if any, compared without case. Trailing dots and spaces are
 * dropped first (the emulator's choice, as Windows drops them from a saved file's name: `macro.vbs.` opens as a
 * script); https://docs.aws.amazon.com/ses/latest/dg/mime-types.html says nothing of them.
 */
function blockedExtension(fileName: string): string | undefined {
  const name = fileName.replace(/[.\s]+$/, '');
  const dot = name.lastIndexOf('.');
  if (dot < 0) return undefined;
  const extension = name.slice(dot + 1).toLowerCase();
  return BLOCKED_EXTENSIONS.has(extension) ? `.${extension}` : undefined;
}

/**
 * MessageRejected for the first file name with an extension SES refuses (SendEmail's error for a message SES
 * will not send, https://docs.aws.amazon.com/ses/latest/APIReference-V2/API_SendEmail.html). The wording
 * "Unsupported attachment type: ..." is the emulator's own: the nearest page,
 * https://docs.aws.amazon.com/ses/latest/dg/mime-types.html, lists the extensions but not the message.
 */
export function checkFileNames(fileNames: readonly string[]): void {
  for (const fileName of fileNames) {
    const extension = blockedExtension(fileName);
    if (extension)
      throw messageRejected(`Unsupported attachment type: '${fileName}' (${extension} files are refused).`);
  }
}

/**
 * BadRequestException listing every field that breaks the API reference's constraints ("2 validation errors
 * detected: ...; ..."). `at` names the list as AWS's messages do (`content.simple.attachments`).
 */
export function checkAttachments(attachments: readonly AttachmentInput[] | null | undefined, at: string): void {
  if (!attachments || attachments.length === 0) return;
  const problems = attachments.flatMap((attachment, index) => fieldProblems(attachment, `${at}.${index + 1}.member`));
  if (problems.length > 0) {
    const count = `${problems.length} validation error${problems.length === 1 ? '' : 's'} detected`;
    throw badRequest(`${count}: ${problems.join('; ')}`);
  }
}

/**
 * Bytes that data takes in a MIME message once base64-encoded in lines of 76 characters ending in CRLF: "if you
 * attach a 5MB file, the attachment size in the email after MIME encoding will be ~6.85MB (about 137% of the
 * original file size)" (SES developer guide, "Managing your Amazon SES sending limits",
 * https://docs.aws.amazon.com/ses/latest/dg/manage-sending-quotas.html).
 */
export function mimeBase64Bytes(bytes: number): number {
  const encoded = 4 * Math.ceil(bytes / 3);
  return encoded + 2 * Math.ceil(encoded / 76);
}

/**
 * Size of the message SES builds from a Simple or Template content: its text parts and attachments, each
 * base64-encoded. The headers and the parts' own MIME headers (a few hundred bytes) are left out.
 */
export function builtMessageBytes(
  texts: readonly (string | null | undefined)[],
  attachments: readonly AttachmentInput[] | null | undefined,
): number {
  const textBytes = texts.reduce((sum, text) => sum + (text ? mimeBase64Bytes(Buffer.byteLength(text, 'utf8')) : 0), 0);
  return (attachments ?? []).reduce(
    (sum, attachment) => sum + mimeBase64Bytes(Buffer.byteLength(attachment.RawContent ?? '', 'base64')),
    textBytes,
  );
}

/**
 * A message over the size limit, refused as the v1 API words it (InvalidParameterValue). With the v2 API the
 * emulator names the same refusal BadRequestException, as v2 names the v1 API's other InvalidParameterValue
 * refusals: the emulator's choice, as no AWS page documents v2's answer to an oversized message (the nearest is
 * SendEmail's error list, https://docs.aws.amazon.com/ses/latest/APIReference-V2/API_SendEmail.html).
 */
export function checkMessageSize(bytes: number, api: 'v1' | 'v2'): void {
  const limit = MAX_MESSAGE_BYTES[api];
  if (bytes <= limit) return;
  const message = `Message length is more than ${limit} bytes long: '${bytes}'.`;
  throw api === 'v1' ? new SesError('InvalidParameterValue', 400, message) : badRequest(message);
}

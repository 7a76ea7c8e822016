import { z } from 'zod';

/**
 * S3 manifest files as the QuickSight user guide describes them ("Supported formats for Amazon
 * S3 manifest files"): the QuickSight format (`fileLocations` with `URIs` or `URIPrefixes`, and
 * `globalUploadSettings`) or the Amazon Redshift format (`entries` of `url` and `mandatory`).
 */

export class ManifestError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ManifestError';
  }
}

export interface S3Location {
  readonly bucket: string;
  readonly key: string;
}

/** One place to read: a file (missing is an error when `mandatory`) or every file under a prefix. */
type ManifestLocation =
  | { readonly kind: 'file'; readonly location: S3Location; readonly mandatory: boolean; readonly uri: string }
  | { readonly kind: 'prefix'; readonly location: S3Location; readonly uri: string };

/** globalUploadSettings as written; absent members take the upload settings' defaults. */
interface ManifestUploadSettings {
  readonly format?: string;
  readonly delimiter?: string;
  readonly textqualifier?: string;
  readonly containsHeader?: boolean;
}

export interface Manifest {
  readonly locations: readonly ManifestLocation[];
  readonly uploadSettings: ManifestUploadSettings;
}

/** The guide's limit on the files one manifest names. */
export const MAX_MANIFEST_FILES = 1000;

const booleanText = z.union([z.boolean(), z.enum(['true', 'false']).transform((v) => v === 'true')]);

const quickSightFormat = z.object({
  fileLocations: z
    .array(
      z
        .object({ URIs: z.array(z.string().min(1)).optional(), URIPrefixes: z.array(z.string().min(1)).optional() })
        .refine(
          (entry) => (entry.URIs?.length ?? 0) + (entry.URIPrefixes?.length ?? 0) > 0,
          'each entry needs URIs or URIPrefixes',
        ),
    )
    .min(1, 'must list at least one location'),
  globalUploadSettings: z
    .object({
      format: z.string().optional(),
      delimiter: z.string().length(1, 'must be one character').optional(),
      textqualifier: z.enum(["'", '"'], { error: 'must be \' or "' }).optional(),
      containsHeader: booleanText.optional(),
    })
    .optional(),
});

const redshiftFormat = z.object({
  entries: z
    .array(z.object({ url: z.string().min(1), mandatory: z.boolean().optional() }))
    .min(1, 'must list at least one entry'),
});

const S3_URI = /^s3:\/\/([^/]+)\/?(.*)$/;
// Path style (https://s3.amazonaws.com/bucket/key, https://s3.<region>.amazonaws.com/bucket/key)
// and virtual-hosted style (https://bucket.s3.amazonaws.com/key, https://bucket.s3.<region>.amazonaws.com/key).
const PATH_STYLE = /^https:\/\/s3[.-](?:[a-z0-9-]+\.)?amazonaws\.com(?:\.cn)?\/([^/]+)\/?(.*)$/;
const VIRTUAL_HOSTED = /^https:\/\/(.+?)\.s3[.-](?:[a-z0-9-]+\.)?amazonaws\.com(?:\.cn)?\/?(.*)$/;

/** The bucket and key (a prefix may be empty: the whole bucket) of an S3 URI or URL. */
function parseS3Uri(uri: string): S3Location {
  for (const pattern of [S3_URI, PATH_STYLE, VIRTUAL_HOSTED]) {
    const match = pattern.exec(uri.trim());
    if (match?.[1]) {
      try {
        return { bucket: match[1], key: pattern === S3_URI ? (match[2] ?? '') : decodeURIComponent(match[2] ?? '') };
      } catch {
        break;
      }
    }
  }
  throw new ManifestError(`${uri} is not an Amazon S3 URI`);
}

function describe(error: z.ZodError): string {
  const issue = error.issues[0];
  return issue ? `${issue.path.join('.') || 'manifest'} ${issue.message}` : 'unexpected content';
}

export function parseManifest(text: string): Manifest {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    throw new ManifestError('the manifest is not valid JSON');
  }
  if (json !== null && typeof json === 'object' && 'entries' in json) {
    const parsed = redshiftFormat.safeParse(json);
    if (!parsed.success) throw new ManifestError(`the manifest is not valid: ${describe(parsed.error)}`);
    return {
      locations: parsed.data.entries.map((entry) => {
        const location = parseS3Uri(entry.url);
        if (location.key === '') throw new ManifestError(`${entry.url} names a bucket, not a file`);
        return { kind: 'file', location, mandatory: entry.mandatory ?? false, uri: entry.url };
      }),
      uploadSettings: {},
    };
  }
  const parsed = quickSightFormat.safeParse(json);
  if (!parsed.success) throw new ManifestError(`the manifest is not valid: ${describe(parsed.error)}`);
  const locations: ManifestLocation[] = [];
  for (const entry of parsed.data.fileLocations) {
    for (const uri of entry.URIs ?? []) {
      const location = parseS3Uri(uri);
      if (location.key === '') throw new ManifestError(`${uri} names a bucket, not a file`);
      // A QuickSight manifest's files must all be there: the import stops at a missing one.
      locations.push({ kind: 'file', location, mandatory: true, uri });
    }
    for (const uri of entry.URIPrefixes ?? []) locations.push({ kind: 'prefix', location: parseS3Uri(uri), uri });
  }
  return { locations, uploadSettings: parsed.data.globalUploadSettings ?? {} };
}

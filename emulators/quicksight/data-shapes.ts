import { z } from 'zod';

/**
 * The shapes of the data-source and dataset requests the emulator accepts, with the limits of
 * the API reference (S3Parameters, ManifestFileLocation, S3Source, UploadSettings,
 * InputColumn, RowLevelPermissionDataSet, RowLevelPermissionTagConfiguration). The stored state keeps the
 * validated request members, so the same schemas check requests and journal lines.
 */

const INPUT_COLUMN_TYPES = [
  'STRING',
  'INTEGER',
  'DECIMAL',
  'DATETIME',
  'BIT',
  'BOOLEAN',
  'JSON',
  'SEMISTRUCT',
] as const;

const inputColumnSchema = z.object({
  Name: z.string({ error: 'is required' }).min(1).max(128),
  Id: z.string().min(1).max(64).optional(),
  Type: z.enum(INPUT_COLUMN_TYPES, { error: `must be one of ${INPUT_COLUMN_TYPES.join(', ')}` }),
  SubType: z.enum(['FLOAT', 'FIXED']).optional(),
});
export type InputColumn = z.infer<typeof inputColumnSchema>;

const UPLOAD_FORMATS = ['CSV', 'TSV', 'CLF', 'ELF', 'XLSX', 'JSON'] as const;

const uploadSettingsSchema = z.object({
  Format: z.enum(UPLOAD_FORMATS, { error: `must be one of ${UPLOAD_FORMATS.join(', ')}` }).optional(),
  StartFromRow: z.number().int().min(1).optional(),
  ContainsHeader: z.boolean().optional(),
  TextQualifier: z.enum(['DOUBLE_QUOTE', 'SINGLE_QUOTE'], { error: 'must be DOUBLE_QUOTE or SINGLE_QUOTE' }).optional(),
  Delimiter: z.string().length(1, 'must be one character').optional(),
});
export type UploadSettings = z.infer<typeof uploadSettingsSchema>;

export const s3SourceSchema = z.object({
  DataSourceArn: z.string({ error: 'is required' }).min(1),
  UploadSettings: uploadSettingsSchema.optional(),
  InputColumns: z.array(inputColumnSchema, { error: 'is required' }).min(1).max(2048),
});
export type S3Source = z.infer<typeof s3SourceSchema>;

/** PhysicalTable is a union; of its members the emulator ingests S3Source only. */
const physicalTableSchema = z
  .object({
    S3Source: s3SourceSchema.optional(),
    RelationalTable: z.unknown().optional(),
    CustomSql: z.unknown().optional(),
    SaaSTable: z.unknown().optional(),
    FileSource: z.unknown().optional(),
  })
  .refine(
    (table) => Object.values(table).filter((member) => member !== undefined).length === 1,
    'must have exactly one member',
  )
  .refine((table) => table.S3Source !== undefined, 'only S3Source tables are supported by this emulator')
  .transform((table) => ({ S3Source: table.S3Source as S3Source }));

export const physicalTableMapSchema = z
  .record(
    z
      .string()
      .min(1)
      .max(64)
      .regex(/^[0-9a-zA-Z-]+$/, 'keys must be letters, digits or hyphens'),
    physicalTableSchema,
    {
      error: 'is required',
    },
  )
  .refine((map) => Object.keys(map).length >= 1 && Object.keys(map).length <= 32, 'must hold 1-32 tables');

export const rowLevelPermissionDataSetSchema = z
  .object({
    Namespace: z
      .string()
      .max(64)
      .regex(/^[a-zA-Z0-9._-]*$/)
      .optional(),
    Arn: z.string({ error: 'is required' }).min(1),
    PermissionPolicy: z.enum(['GRANT_ACCESS', 'DENY_ACCESS'], { error: 'must be GRANT_ACCESS or DENY_ACCESS' }),
    FormatVersion: z.enum(['VERSION_1', 'VERSION_2'], { error: 'must be VERSION_1 or VERSION_2' }).default('VERSION_1'),
    Status: z.enum(['ENABLED', 'DISABLED'], { error: 'must be ENABLED or DISABLED' }).default('ENABLED'),
  })
  // RowLevelPermissionDataSet.FormatVersion: "When FormatVersion is VERSION_2, ... Namespace must not exist."
  .refine(
    (rls) => rls.FormatVersion !== 'VERSION_2' || rls.Namespace === undefined,
    'Namespace must not be set with FormatVersion VERSION_2',
  );
export type RowLevelPermissionDataSet = z.infer<typeof rowLevelPermissionDataSetSchema>;

/** "is required" for a member left out; zod's own message for any other problem. */
export const REQUIRED = {
  error: (issue: { input: unknown }) => (issue.input === undefined ? 'is required' : undefined),
};

/**
 * RowLevelPermissionTagRule
 * (https://docs.aws.amazon.com/quicksight/latest/APIReference/API_RowLevelPermissionTagRule.html):
 * TagKey "Minimum length of 1. Maximum length of 128", ColumnName required, TagMultiValueDelimiter
 * "Maximum length of 10", MatchAllValue "Minimum length of 1. Maximum length of 256".
 */
const rowLevelPermissionTagRuleSchema = z.object({
  TagKey: z.string(REQUIRED).min(1).max(128),
  ColumnName: z.string(REQUIRED),
  TagMultiValueDelimiter: z.string().max(10).optional(),
  MatchAllValue: z.string().min(1).max(256).optional(),
});
export type RowLevelPermissionTagRule = z.infer<typeof rowLevelPermissionTagRuleSchema>;

/**
 * RowLevelPermissionTagConfiguration
 * (https://docs.aws.amazon.com/quicksight/latest/APIReference/API_RowLevelPermissionTagConfiguration.html):
 * TagRules "Minimum number of 1 item. Maximum number of 50 items"; Status ENABLED | DISABLED;
 * TagRuleConfigurations 1-50 lists of 1-50 tag keys of 1-128 characters. A Status left out is
 * stored as ENABLED, as RowLevelPermissionDataSet's is (the emulator's choice: the page names no default).
 */
export const rowLevelPermissionTagConfigurationSchema = z.object({
  Status: z.enum(['ENABLED', 'DISABLED'], { error: 'must be ENABLED or DISABLED' }).default('ENABLED'),
  TagRules: z.array(rowLevelPermissionTagRuleSchema, REQUIRED).min(1).max(50),
  TagRuleConfigurations: z
    .array(z.array(z.string().min(1).max(128)).min(1).max(50))
    .min(1)
    .max(50)
    .optional(),
});
export type RowLevelPermissionTagConfiguration = z.infer<typeof rowLevelPermissionTagConfigurationSchema>;

export const manifestFileLocationSchema = z.object({
  Bucket: z.string({ error: 'is required' }).min(1).max(1024),
  Key: z.string({ error: 'is required' }).min(1).max(1024),
});

export const ingestionStatuses = ['INITIALIZED', 'QUEUED', 'RUNNING', 'FAILED', 'COMPLETED', 'CANCELLED'] as const;

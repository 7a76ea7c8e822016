import { z } from 'zod';
import { REQUIRED } from './data-shapes.ts';

/**
 * The shapes of a StartDashboardSnapshotJob request, with the limits of the API reference
 * (https://docs.aws.amazon.com/quicksight/latest/APIReference/API_StartDashboardSnapshotJob.html and
 * the pages of SnapshotUserConfiguration, SnapshotAnonymousUser, SessionTag, SnapshotConfiguration,
 * SnapshotFileGroup, SnapshotFile, SnapshotFileSheetSelection, SnapshotDestinationConfiguration and
 * S3BucketConfiguration). A job keeps its validated SnapshotConfiguration, so the same schema checks
 * requests and journal lines.
 */

/** ShortRestrictiveResourceId (DashboardId, SnapshotJobId, SheetId, VisualIds): 1-512 characters, `[\w\-]+`. */
export const SHORT_RESTRICTIVE_ID = /^[\w-]{1,512}$/;

const restrictiveId = z
  .string(REQUIRED)
  .regex(SHORT_RESTRICTIVE_ID, 'must be 1-512 letters, digits, underscores or hyphens');

/** NonEmptyString: "Pattern: .*\S.*". */
const nonEmptyString = z.string(REQUIRED).regex(/\S/, 'must not be blank');

const sheetSelectionSchema = z.object({
  SheetId: restrictiveId,
  SelectionScope: z.enum(['ALL_VISUALS', 'SELECTED_VISUALS'], { error: 'must be ALL_VISUALS or SELECTED_VISUALS' }),
  // SnapshotFileSheetSelection.VisualIds: "Minimum number of 1 item. Maximum number of 5 items."
  VisualIds: z.array(restrictiveId).min(1).max(5).optional(),
});

const snapshotFileSchema = z.object({
  // SnapshotFile.SheetSelections: "Minimum number of 1 item. Maximum number of 5 items."
  SheetSelections: z.array(sheetSelectionSchema, REQUIRED).min(1).max(5),
  FormatType: z.enum(['CSV', 'PDF', 'EXCEL'], { error: 'must be CSV, PDF or EXCEL' }),
});
export type SnapshotFile = z.infer<typeof snapshotFileSchema>;

/**
 * SnapshotFileGroup.Files: "This structure can hold 1 configuration at a time" (1 item). The page
 * marks Files optional; a group without a file would make nothing, so the emulator requires it.
 */
const fileGroupSchema = z.object({
  Files: z.array(snapshotFileSchema, REQUIRED).min(1).max(1, 'must hold exactly one file'),
});

const s3DestinationSchema = z.object({
  BucketConfiguration: z.object(
    { BucketName: nonEmptyString, BucketPrefix: nonEmptyString, BucketRegion: nonEmptyString },
    REQUIRED,
  ),
});

export const snapshotConfigurationSchema = z.object({
  /**
   * SnapshotConfiguration.FileGroups: 1 to 7 items (the page's text says "a maximum of 6"; its
   * constraint, and the one PDF, one Excel workbook and five CSVs a job may request, say 7).
   */
  FileGroups: z.array(fileGroupSchema, REQUIRED).min(1).max(7),
  DestinationConfiguration: z
    .object({
      // SnapshotDestinationConfiguration.S3Destinations: "This structure can hold a maximum of 1".
      S3Destinations: z.array(s3DestinationSchema).min(1).max(1).optional(),
    })
    .optional(),
  Parameters: z.record(z.string(), z.unknown()).optional(),
});
export type SnapshotConfiguration = z.infer<typeof snapshotConfigurationSchema>;

/** SessionTag: Key "Minimum length of 1. Maximum length of 128", Value "Minimum length of 1. Maximum length of 256". */
const sessionTagSchema = z.object({
  Key: z.string(REQUIRED).min(1).max(128),
  Value: z.string(REQUIRED).min(1).max(256),
});

export const startSnapshotJobSchema = z.object({
  SnapshotJobId: restrictiveId,
  UserConfiguration: z
    .object({
      // SnapshotUserConfiguration.AnonymousUsers: "Minimum number of 1 item. Maximum number of 1 item."
      AnonymousUsers: z
        .array(
          z.object({
            // SnapshotAnonymousUser.RowLevelPermissionTags: "Minimum number of 1 item. Maximum number of 50 items."
            RowLevelPermissionTags: z.array(sessionTagSchema).min(1).max(50).optional(),
          }),
        )
        .min(1, 'must hold exactly one anonymous user')
        .max(1, 'must hold exactly one anonymous user')
        .optional(),
    })
    .optional(),
  SnapshotConfiguration: snapshotConfigurationSchema,
});
export type StartSnapshotJobInput = z.infer<typeof startSnapshotJobSchema>;

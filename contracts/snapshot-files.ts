/**
 * What a subscription's file is made of, read the same way by the delivery function
 * (lambdas/deliveries/snapshot.ts) and the isolation proof's emailed-file path
 * (tools/support/isolation-files.ts): which part of the dashboard becomes the file, and the
 * row-level-security tag of the anonymous user QuickSight makes it for
 * (StartDashboardSnapshotJob).
 */
import { COMPANY_TAG_DELIMITER, COMPANY_TAG_KEY } from './companies.ts';

/** The fields of a dashboard definition (DescribeDashboardDefinition's Definition) the choice reads. */
export interface DefinitionSheets {
  readonly Sheets?: readonly {
    readonly SheetId?: string;
    readonly Visuals?: readonly {
      readonly TableVisual?: { readonly VisualId?: string };
      readonly PivotTableVisual?: { readonly VisualId?: string };
    }[];
  }[];
}

/** A SnapshotFileSheetSelection: a PDF is the whole first sheet, a CSV one visual's data. */
export type FileSheetSelection =
  | { SheetId: string; SelectionScope: 'ALL_VISUALS' }
  | { SheetId: string; SelectionScope: 'SELECTED_VISUALS'; VisualIds: string[] };

/**
 * The part of the dashboard a file holds: the first sheet for a PDF; for a CSV, that sheet's
 * first table visual (else its first pivot table), as SnapshotFileSheetSelection allows one
 * visual for CSV. A string says why the dashboard cannot make the file.
 */
export function fileSheetSelection(
  definition: DefinitionSheets | undefined,
  format: 'PDF' | 'CSV',
): FileSheetSelection | string {
  const sheet = definition?.Sheets?.[0];
  if (!sheet?.SheetId) return 'The dashboard has no sheet to send';
  if (format === 'PDF') return { SheetId: sheet.SheetId, SelectionScope: 'ALL_VISUALS' };
  const visuals = sheet.Visuals ?? [];
  const table = visuals.find((visual) => visual.TableVisual?.VisualId) ?? visuals.find((v) => v.PivotTableVisual);
  const visualId = table?.TableVisual?.VisualId ?? table?.PivotTableVisual?.VisualId;
  if (!visualId) return 'The dashboard’s first sheet has no table to send as CSV';
  return { SheetId: sheet.SheetId, SelectionScope: 'SELECTED_VISUALS', VisualIds: [visualId] };
}

/** The anonymous user's RowLevelPermissionTags: `company` = the companies, joined with the tag rules' delimiter. */
export const companyTags = (companies: readonly string[]) => [
  { Key: COMPANY_TAG_KEY, Value: companies.join(COMPANY_TAG_DELIMITER) },
];

/** A snapshot job error: DescribeDashboardSnapshotJobResult's ErrorInfo, or a file's. */
interface SnapshotErrorInfo {
  readonly ErrorType?: string;
  readonly ErrorMessage?: string;
}

/** The fields of DescribeDashboardSnapshotJobResult a file's outcome is read from. */
export interface SnapshotJobResult {
  readonly JobStatus?: string;
  readonly ErrorInfo?: SnapshotErrorInfo;
  readonly Result?: {
    readonly AnonymousUsers?: readonly {
      readonly FileGroups?: readonly {
        readonly S3Results?: readonly { readonly S3Uri?: string; readonly ErrorInfo?: readonly SnapshotErrorInfo[] }[];
      }[];
    }[];
  };
}

/**
 * The file of an ended job (`jobStatus` as DescribeDashboardSnapshotJob last answered): the link
 * to its one anonymous user's one file, or QuickSight's reason for making none.
 */
export function snapshotFile(
  jobStatus: string | undefined,
  result: SnapshotJobResult,
): { readonly url: string } | { readonly error: string } {
  const file = result.Result?.AnonymousUsers?.[0]?.FileGroups?.[0]?.S3Results?.[0];
  const error = result.ErrorInfo ?? file?.ErrorInfo?.[0];
  if (jobStatus !== 'FAILED' && result.JobStatus !== 'FAILED' && error === undefined && file?.S3Uri)
    return { url: file.S3Uri };
  if (error !== undefined) return { error: error.ErrorMessage ?? error.ErrorType ?? 'failed' };
  return { error: jobStatus === 'FAILED' || result.JobStatus === 'FAILED' ? 'failed' : 'no file in the result' };
}

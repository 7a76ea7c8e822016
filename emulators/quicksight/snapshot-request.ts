import { sampleSheetId, type SampleDashboard, type SampleVisual } from '#emulators/sample-dashboards/catalog.ts';
import { NOT_EMULATED, invalidParameter } from './errors.ts';
import type { SessionTag } from './rls-tags.ts';
import type { SnapshotConfiguration, SnapshotFile, StartSnapshotJobInput } from './snapshot-shapes.ts';

/**
 * The checks StartDashboardSnapshotJob makes beyond the request's shapes, each throwing
 * InvalidParameterValueException, from the API reference
 * (https://docs.aws.amazon.com/quicksight/latest/APIReference/API_StartDashboardSnapshotJob.html,
 * API_SnapshotFile.html, API_SnapshotFileSheetSelection.html):
 * - a job may request "1 PDF", "1 Excel workbook that includes up to 5 table or pivot table
 *   visuals" and "5 CSVs from table or pivot table visuals";
 * - SheetSelections "can hold a maximum of 5 CSV configurations, 5 Excel configurations, or 1
 *   configuration for PDF";
 * - SelectionScope ALL_VISUALS "is required if the snapshot is a PDF", SELECTED_VISUALS "if the
 *   snapshot is a CSV or Excel workbook";
 * - VisualIds: "Supported visual types are table, pivot table visuals. This value is required if
 *   you are generating a CSV or Excel workbook. This value supports a maximum of 1 visual ID for
 *   CSV and 5 visual IDs across up to 5 sheet selections for Excel".
 * The emulator's choices where the pages are silent: sheets and visuals must be the dashboard's
 * (IDs compared exactly) and are checked when the job starts; a PDF selection names no visuals;
 * the anonymous user's tag keys are distinct. What the emulator does not make is refused:
 * registered users (identity-enhanced credentials), Excel workbooks, S3 destinations, parameters.
 */

const EXPORTABLE: ReadonlySet<SampleVisual['type']> = new Set(['TABLE', 'PIVOT_TABLE']);

/** The one anonymous user's session tags (none when RowLevelPermissionTags is left out). */
export function anonymousTags(input: StartSnapshotJobInput): readonly SessionTag[] {
  if (!input.UserConfiguration) {
    throw invalidParameter(
      `UserConfiguration is required: snapshots for registered users (identity-enhanced credentials) ${NOT_EMULATED}`,
    );
  }
  const [user] = input.UserConfiguration.AnonymousUsers ?? [];
  if (!user) throw invalidParameter('UserConfiguration.AnonymousUsers must hold exactly one anonymous user');
  const tags = user.RowLevelPermissionTags ?? [];
  const keys = new Set<string>();
  for (const tag of tags) {
    if (keys.has(tag.Key)) throw invalidParameter(`RowLevelPermissionTags has the key ${tag.Key} more than once`);
    keys.add(tag.Key);
  }
  return tags;
}

/** The visuals of a sheet of the dashboard (its only sheet holds them all); undefined for another sheet. */
function sheetVisuals(dashboard: SampleDashboard, sheetId: string): readonly SampleVisual[] | undefined {
  const index = dashboard.sheets.findIndex((_name, i) => sampleSheetId(dashboard, i) === sheetId);
  if (index < 0) return undefined;
  return index === 0 ? dashboard.visuals : [];
}

function requireValidFile(dashboard: SampleDashboard, file: SnapshotFile, where: string): void {
  const format = file.FormatType;
  if (format === 'PDF' && file.SheetSelections.length > 1)
    throw invalidParameter(`${where}.SheetSelections can hold 1 configuration for PDF`);
  let excelVisuals = 0;
  for (const [index, selection] of file.SheetSelections.entries()) {
    const at = `${where}.SheetSelections.${index}`;
    const visuals = sheetVisuals(dashboard, selection.SheetId);
    if (!visuals)
      throw invalidParameter(`${at}.SheetId ${selection.SheetId} is not a sheet of ${dashboard.dashboardId}`);
    const scope = format === 'PDF' ? 'ALL_VISUALS' : 'SELECTED_VISUALS';
    if (selection.SelectionScope !== scope)
      throw invalidParameter(`${at}.SelectionScope must be ${scope} for ${format}`);
    if (format === 'PDF') {
      if (selection.VisualIds) throw invalidParameter(`${at}.VisualIds must be left out for PDF (ALL_VISUALS)`);
      continue;
    }
    const visualIds = selection.VisualIds ?? [];
    if (visualIds.length === 0) throw invalidParameter(`${at}.VisualIds is required for ${format}`);
    if (format === 'CSV' && visualIds.length > 1) throw invalidParameter(`${at}.VisualIds can hold 1 visual for CSV`);
    excelVisuals += visualIds.length;
    for (const visualId of visualIds) {
      const visual = visuals.find((candidate) => candidate.visualId === visualId);
      if (!visual) throw invalidParameter(`${at}.VisualIds: ${visualId} is not a visual of sheet ${selection.SheetId}`);
      if (!EXPORTABLE.has(visual.type)) {
        throw invalidParameter(`${at}.VisualIds: ${visualId} is not a table or pivot table visual`);
      }
    }
  }
  if (format === 'EXCEL' && excelVisuals > 5)
    throw invalidParameter(`${where}: an Excel workbook holds 5 visual IDs at most`);
}

/** Checks a SnapshotConfiguration against the dashboard; throws the first problem. */
export function requireValidSnapshotConfiguration(dashboard: SampleDashboard, configuration: SnapshotConfiguration) {
  const files = configuration.FileGroups.flatMap((group) => group.Files);
  files.forEach((file, index) =>
    requireValidFile(dashboard, file, `SnapshotConfiguration.FileGroups.${index}.Files.0`),
  );
  const count = (format: SnapshotFile['FormatType']) => files.filter((file) => file.FormatType === format);
  if (count('PDF').length > 1) throw invalidParameter('A snapshot job can make 1 PDF');
  if (count('EXCEL').length > 1) throw invalidParameter('A snapshot job can make 1 Excel workbook');
  if (count('CSV').flatMap((file) => file.SheetSelections).length > 5)
    throw invalidParameter('A snapshot job can make 5 CSVs');
  if (count('EXCEL').length > 0) throw invalidParameter(`FormatType EXCEL ${NOT_EMULATED} (CSV and PDF are)`);
  if (configuration.DestinationConfiguration?.S3Destinations) {
    throw invalidParameter(
      `DestinationConfiguration.S3Destinations ${NOT_EMULATED}: leave it out and download the files from the result's S3Uri`,
    );
  }
  if (configuration.Parameters) throw invalidParameter(`SnapshotConfiguration.Parameters ${NOT_EMULATED}`);
}

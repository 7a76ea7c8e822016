import { PDFDocument, StandardFonts, rgb, type PDFFont, type PDFPage } from 'pdf-lib';

/**
 * The PDF a snapshot job makes of a dashboard sheet (FormatType PDF, SelectionScope ALL_VISUALS):
 * landscape A4 pages with the dashboard's name, the sheet's, when it was made, and the rows in
 * view as a table of text (its header repeated on every page), written with pdf-lib.
 */

export interface SnapshotPdfContent {
  readonly dashboardName: string;
  readonly sheetName: string;
  readonly createdAt: number;
  readonly columns: readonly string[];
  readonly rows: readonly (readonly string[])[];
}

const PAGE: [number, number] = [841.89, 595.28];
const MARGIN = 36;
const CELL_PADDING = 6;
const LARGEST_FONT = 8;
const SMALLEST_FONT = 4;
const HEADER_HEIGHT = 64;
const FOOTER_HEIGHT = 18;
const GREY = rgb(0.35, 0.35, 0.35);

interface TableLayout {
  readonly size: number;
  readonly lineHeight: number;
  readonly widths: readonly number[];
}

/** The largest font size (up to LARGEST_FONT) at which every column fits its widest text across the page. */
function layout(content: SnapshotPdfContent, regular: PDFFont, bold: PDFFont): TableLayout {
  const available = PAGE[0] - 2 * MARGIN - CELL_PADDING * content.columns.length;
  // Text widths grow in proportion to the font size: measure at size 1, then scale.
  const unitWidths = content.columns.map((header, index) =>
    Math.max(
      bold.widthOfTextAtSize(header, 1),
      ...content.rows.map((row) => regular.widthOfTextAtSize(row[index] ?? '', 1)),
    ),
  );
  const unitTotal = unitWidths.reduce((sum, width) => sum + width, 0);
  const size = Math.min(LARGEST_FONT, Math.max(SMALLEST_FONT, available / Math.max(unitTotal, 1)));
  return { size, lineHeight: size * 1.5, widths: unitWidths.map((width) => width * size) };
}

/**
 * Draws table cells a column at a time (one text block of lines per column): a drawText per cell
 * costs as much as a block, and a sheet of several hundred rows would take seconds.
 */
function drawColumns(
  page: PDFPage,
  rows: readonly (readonly string[])[],
  top: number,
  font: PDFFont,
  { size, lineHeight, widths }: TableLayout,
): void {
  let x = MARGIN;
  widths.forEach((width, index) => {
    const lines = rows.map((row) => row[index] ?? '').join('\n');
    page.drawText(lines, { x, y: top, size, font, lineHeight });
    x += width + CELL_PADDING;
  });
}

export async function renderSnapshotPdf(content: SnapshotPdfContent): Promise<Uint8Array> {
  const document = await PDFDocument.create();
  const created = new Date(content.createdAt);
  document.setTitle(`${content.dashboardName} - ${content.sheetName}`);
  document.setCreationDate(created);
  document.setModificationDate(created);
  const regular = await document.embedFont(StandardFonts.Helvetica);
  const bold = await document.embedFont(StandardFonts.HelveticaBold);
  const table = layout(content, regular, bold);
  const rowsPerPage = Math.max(
    1,
    Math.floor((PAGE[1] - 2 * MARGIN - HEADER_HEIGHT - FOOTER_HEIGHT) / table.lineHeight) - 1,
  );
  const pageCount = Math.max(1, Math.ceil(content.rows.length / rowsPerPage));
  for (let pageIndex = 0; pageIndex < pageCount; pageIndex += 1) {
    const page = document.addPage(PAGE);
    let y = PAGE[1] - MARGIN - 16;
    page.drawText(content.dashboardName, { x: MARGIN, y, size: 16, font: bold });
    y -= 18;
    page.drawText(`Sheet: ${content.sheetName}`, { x: MARGIN, y, size: 11, font: regular });
    y -= 14;
    const summary = `${content.rows.length} rows in view - generated ${created.toISOString()}`;
    page.drawText(summary, { x: MARGIN, y, size: 8, font: regular, color: GREY });
    y = PAGE[1] - MARGIN - HEADER_HEIGHT;
    if (content.rows.length === 0) {
      page.drawText('No rows are in view for these row-level security tags.', {
        x: MARGIN,
        y,
        size: 10,
        font: regular,
      });
    } else {
      drawColumns(page, [content.columns], y, bold, table);
      const pageRows = content.rows.slice(pageIndex * rowsPerPage, (pageIndex + 1) * rowsPerPage);
      drawColumns(page, pageRows, y - table.lineHeight, regular, table);
    }
    const footer = `Page ${pageIndex + 1} of ${pageCount}`;
    page.drawText(footer, { x: MARGIN, y: MARGIN - 12, size: 7, font: regular, color: GREY });
  }
  return document.save();
}

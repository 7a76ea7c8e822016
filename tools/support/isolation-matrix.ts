/**
 * The isolation matrix: for each synthetic user, each company-scoped dashboard and each path a
 * user's rows take, the rows seen of every company. A row of a company the user does not hold
 * is a cross-company row.
 */

type RowPath = 'dashboard' | 'graphql' | 'file';

/** The paths in the order the matrix prints them under each dashboard. */
const PATH_LABELS: Record<RowPath, string> = {
  dashboard: 'embedded dashboard as drawn',
  graphql: 'GraphQL listTableauViews',
  file: 'emailed file (CSV)',
};
const PATH_ORDER = Object.keys(PATH_LABELS);

export interface MatrixCell {
  readonly user: string;
  /** The companies the user holds. */
  readonly holds: readonly string[];
  readonly dashboardId: string;
  readonly path: RowPath;
  /** Rows seen per company (absent: none). */
  readonly rows: ReadonlyMap<string, number>;
  /** Printed after the counts: why nothing could be seen on this path (no file is made, ...). */
  readonly note?: string;
}

export class IsolationMatrix {
  readonly cells: MatrixCell[] = [];

  constructor(readonly companies: readonly string[]) {}

  record(cell: MatrixCell): void {
    this.cells.push(cell);
  }

  /** Rows of companies the user does not hold, over every cell. */
  get crossCompanyRows(): number {
    return this.cells.reduce(
      (sum, cell) =>
        sum + [...cell.rows].reduce((rows, [company, count]) => rows + (cell.holds.includes(company) ? 0 : count), 0),
      0,
    );
  }

  /** One line per cross-company finding. */
  crossings(): string[] {
    return this.cells.flatMap((cell) =>
      [...cell.rows]
        .filter(([company, count]) => count > 0 && !cell.holds.includes(company))
        .map(
          ([company, count]) =>
            `${cell.user} (${cell.holds.join(', ') || 'no company'}) saw ${count} row${count > 1 ? 's' : ''} of ${company} on ${cell.dashboardId} through the ${PATH_LABELS[cell.path]}`,
        ),
    );
  }

  /**
   * The table as printed: one block per dashboard and path (the dashboards in the order first
   * recorded, the paths in {@link PATH_LABELS}' order), a row per user, a column per company.
   */
  lines(): string[] {
    const width = Math.max(12, ...this.companies.map((company) => company.length));
    const userWidth = Math.max(10, ...this.cells.map((cell) => cell.user.length));
    const out: string[] = [];
    const dashboards = [...new Set(this.cells.map((cell) => cell.dashboardId))];
    const blocks = new Map<string, MatrixCell[]>();
    const ordered = [...this.cells].sort(
      (a, b) =>
        dashboards.indexOf(a.dashboardId) - dashboards.indexOf(b.dashboardId) ||
        PATH_ORDER.indexOf(a.path) - PATH_ORDER.indexOf(b.path),
    );
    for (const cell of ordered) {
      const key = `${cell.dashboardId} | ${PATH_LABELS[cell.path]}`;
      blocks.set(key, [...(blocks.get(key) ?? []), cell]);
    }
    for (const [key, cells] of blocks) {
      out.push('', `  ${key}`);
      out.push(
        `    ${'user'.padEnd(userWidth)}  ${this.companies.map((company) => company.padStart(width)).join('  ')}`,
      );
      for (const cell of cells) {
        const counts = this.companies.map((company) => {
          const count = cell.rows.get(company) ?? 0;
          const mark = count > 0 && !cell.holds.includes(company) ? '!' : '';
          return `${count}${mark}`.padStart(width);
        });
        const note = cell.note === undefined ? '' : `  (${cell.note})`;
        out.push(`    ${cell.user.padEnd(userWidth)}  ${counts.join('  ')}${note}`);
      }
    }
    return out;
  }
}

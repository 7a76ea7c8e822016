import { describe, expect, it } from 'vitest';
import { findSampleDashboard } from '#emulators/sample-dashboards/catalog.ts';
import { sampleDataset } from '#emulators/sample-dashboards/data/generator.ts';
import { dashboardPage } from '#emulators/quicksight/pages.ts';
import { DEFAULT_PERIOD } from '#emulators/sample-dashboards/render/layout.ts';
import { IsolationMatrix } from '#tools/support/isolation-matrix.ts';
import { readDrawnPage } from '#tools/support/isolation-pages.ts';

const NORTHWIND = 'Northwind Manufacturing';
const CONTOSO = 'Contoso Distribution';

describe('isolation proof: reading a drawn page', () => {
  const dashboard = findSampleDashboard('sales-performance')!;
  const factsOf = (companies: readonly string[]) =>
    sampleDataset().facts.filter((fact) => companies.includes(fact.company));

  it('counts the distributor rows a page draws and the companies it names in view', () => {
    const html = dashboardPage(dashboard, 'reader', { period: DEFAULT_PERIOD }, factsOf([NORTHWIND]));
    const page = readDrawnPage(200, html);
    const distributors = sampleDataset().distributors.filter((d) => d.company === NORTHWIND).length;
    expect(page.rows).toBe(distributors);
    expect(page.companiesInView).toEqual([NORTHWIND]);
    expect(page.heading).toBe(dashboard.name);
  });

  it('reads a page narrowed to another company as drawing nothing', () => {
    const html = dashboardPage(dashboard, 'reader', { period: DEFAULT_PERIOD }, factsOf([NORTHWIND]), {
      companyParameter: [CONTOSO],
    });
    const page = readDrawnPage(200, html);
    expect(page.rows).toBe(0);
    expect(page.companiesInView).toEqual([]);
  });
});

describe('isolation proof: the matrix', () => {
  it('counts 0 cross-company rows when each user sees only the companies they hold', () => {
    const matrix = new IsolationMatrix([CONTOSO, NORTHWIND]);
    matrix.record({
      user: 'owner',
      holds: [CONTOSO, NORTHWIND],
      dashboardId: 'sales-performance',
      path: 'dashboard',
      rows: new Map([
        [CONTOSO, 3],
        [NORTHWIND, 4],
      ]),
    });
    expect(matrix.crossCompanyRows).toBe(0);
    expect(matrix.crossings()).toEqual([]);
  });

  it('counts, names and marks a row of a company the user does not hold', () => {
    const matrix = new IsolationMatrix([CONTOSO, NORTHWIND]);
    matrix.record({
      user: NORTHWIND,
      holds: [NORTHWIND],
      dashboardId: 'sales-performance',
      path: 'graphql',
      rows: new Map([
        [NORTHWIND, 1],
        [CONTOSO, 2],
      ]),
    });
    expect(matrix.crossCompanyRows).toBe(2);
    expect(matrix.crossings()).toEqual([
      `${NORTHWIND} (${NORTHWIND}) saw 2 rows of ${CONTOSO} on sales-performance through the GraphQL listTableauViews`,
    ]);
    const row = matrix.lines().find((line) => line.trim().startsWith(NORTHWIND))!;
    expect(row.trim().split(/\s{2,}/)).toEqual([NORTHWIND, '2!', '1']);
  });
});

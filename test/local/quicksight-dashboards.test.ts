import { describe, expect, it } from 'vitest';
import { SAMPLE_DASHBOARDS } from '#emulators/quicksight/index.ts';
import { fillRate, lastMonths, marginRate, onTimeRate, totals } from '#emulators/sample-dashboards/data/aggregate.ts';
import { DEFAULT_SEED, generateDataset, sampleDataset } from '#emulators/sample-dashboards/data/generator.ts';
import { parseViewState } from '#emulators/sample-dashboards/render/layout.ts';
import { dashboardPage } from '#emulators/quicksight/pages.ts';

const view = (query = '') => parseViewState(new URLSearchParams(query));

describe('sample data set', () => {
  it('is the same on every generation and differs with another seed', () => {
    expect(generateDataset()).toEqual(generateDataset(DEFAULT_SEED));
    expect(generateDataset(DEFAULT_SEED + 1).facts).not.toEqual(generateDataset().facts);
    expect(sampleDataset()).toBe(sampleDataset());
  });

  it('covers 24 months of a manufacturer, its product lines and 8-12 distributors', () => {
    const dataset = sampleDataset();
    expect(dataset.months).toHaveLength(24);
    expect(dataset.months[0]).toBe('2024-01');
    expect(dataset.months.at(-1)).toBe('2025-12');
    expect(dataset.distributors.length).toBeGreaterThanOrEqual(8);
    expect(dataset.distributors.length).toBeLessThanOrEqual(12);
    expect(new Set(dataset.distributors.map((d) => d.name)).size).toBe(dataset.distributors.length);
    expect(dataset.facts).toHaveLength(24 * dataset.distributors.length * dataset.productLines.length);
  });

  it('holds figures that make business sense', () => {
    for (const fact of sampleDataset().facts) {
      expect(fact.revenue).toBeGreaterThan(0);
      expect(fact.cogs).toBeLessThan(fact.revenue);
      expect(fact.linesFilled).toBeLessThanOrEqual(fact.linesOrdered);
      expect(fact.onTimeShipments).toBeLessThanOrEqual(fact.shipments);
      expect(fact.stockOuts).toBeGreaterThanOrEqual(0);
    }
    const year = totals(lastMonths(sampleDataset(), 12).facts);
    expect(marginRate(year)).toBeGreaterThan(0.25);
    expect(marginRate(year)).toBeLessThan(0.5);
    expect(fillRate(year)).toBeGreaterThan(0.88);
    expect(onTimeRate(year)).toBeGreaterThan(0.85);
  });
});

describe('dashboard pages', () => {
  it.each(SAMPLE_DASHBOARDS.map((d) => [d.name, d] as const))('renders %s for every period', (_name, dashboard) => {
    for (const period of ['6', '12', '24']) {
      const page = dashboardPage(dashboard, 'viewer@example.com', view(`period=${period}`));
      const escapedName = dashboard.name.replace('&', '&amp;');
      expect(page).toContain(`<title>${escapedName}</title>`);
      expect(page).toContain(`<h1>${escapedName}</h1>`);
      expect(page).toContain('Viewing as <strong>viewer@example.com</strong>');
      expect(page).toContain(`<a href="?period=${period}" aria-current="page">`);
      expect(page.match(/<svg class="chart"/g)?.length).toBeGreaterThanOrEqual(3);
      expect(page).toMatch(/<title id="[^"]+-title">[^<]+<\/title><desc id="[^"]+-desc">[^<]+<\/desc>/);
      expect(page).toContain('<table class="data-table"><caption>');
      expect(page).not.toMatch(/NaN|undefined|Infinity/);
    }
  });

  it('is the same page for the same view', () => {
    const dashboard = SAMPLE_DASHBOARDS[0];
    if (!dashboard) throw new Error('No dashboards');
    expect(dashboardPage(dashboard, 'a@example.com', view())).toBe(dashboardPage(dashboard, 'a@example.com', view()));
  });

  it('sorts the table through the query string', () => {
    const scorecard = SAMPLE_DASHBOARDS.find((d) => d.dashboardId === 'distributor-scorecard');
    if (!scorecard) throw new Error('No scorecard');
    const firstRow = (query: string) =>
      /<tbody><tr><th scope="row">([^<]+)<\/th>/.exec(dashboardPage(scorecard, 'a', view(query)))?.[1];
    const ascending = firstRow('period=12&sort=name&dir=asc');
    const descending = firstRow('period=12&sort=name&dir=desc');
    const names = sampleDataset()
      .distributors.map((d) => d.name)
      .sort((a, b) => a.localeCompare(b));
    expect(ascending).toBe(names[0]);
    expect(descending).toBe(names.at(-1));
    const page = dashboardPage(scorecard, 'a', view('period=12&sort=name&dir=asc'));
    expect(page).toContain(
      'aria-sort="ascending"><a class="sort active" href="?period=12&amp;sort=name&amp;dir=desc">',
    );
  });

  it('falls back to the default view for unknown query values', () => {
    expect(view('period=7&sort=%3Cscript%3E&dir=sideways')).toEqual({ period: 12, sort: undefined, dir: undefined });
  });

  it('escapes the viewer name', () => {
    const dashboard = SAMPLE_DASHBOARDS[0];
    if (!dashboard) throw new Error('No dashboards');
    const page = dashboardPage(dashboard, '<img src=x onerror=alert(1)>', view());
    expect(page).not.toContain('<img');
    expect(page).toContain('&lt;img src=x onerror=alert(1)&gt;');
  });
});

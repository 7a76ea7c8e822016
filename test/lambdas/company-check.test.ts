import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi, type MockInstance } from 'vitest';
import { COMPANY_ACCESS_DIFFERENCES_METRIC } from '#contracts/metrics.ts';
import { fakeQuickSight, groupNameOf, type FakeQuickSight, seedCompany, seedMembership } from './support/companies.ts';
import { type Harness, OTHER_USER, startHarness, USER } from './support/harness.ts';

let h: Harness;
let stdout: MockInstance<typeof process.stdout.write>;
let check: () => Promise<{ differences: number; quicksightCalls: number }>;
let qs: FakeQuickSight;

beforeAll(async () => {
  h = await startHarness({
    POWERTOOLS_METRICS_NAMESPACE: 'Portal-check-test',
    POWERTOOLS_SERVICE_NAME: 'company-check',
  });
  ({ handler: check } = await import('#lambdas/company-check/handler.ts'));
});
afterAll(() => h.close());
beforeEach(async () => {
  await h.reset();
  qs = fakeQuickSight(h, [USER.email, OTHER_USER.email]);
  await seedCompany(h, 'c-north', 'Northwind Manufacturing');
  await seedMembership(h, USER.email, ['c-north']);
  qs.groups.set(groupNameOf('c-north'), new Set([USER.email]));
  stdout = vi.spyOn(process.stdout, 'write').mockImplementation(() => true);
});
afterEach(() => stdout.mockRestore());

/** The CompanyAccessDifferences values the function published in EMF. */
const published = () =>
  stdout.mock.calls
    .flatMap(([chunk]) => String(chunk).split('\n'))
    .filter((line) => line.includes('"CloudWatchMetrics"') && line.includes(COMPANY_ACCESS_DIFFERENCES_METRIC))
    .map((line) => (JSON.parse(line) as Record<string, unknown>)[COMPANY_ACCESS_DIFFERENCES_METRIC]);

describe('the daily company-access check', () => {
  it('reports differences, publishes their count and keeps the result, changing nothing', async () => {
    qs.groups.get(groupNameOf('c-north'))!.delete(USER.email);
    qs.groups.get(groupNameOf('c-north'))!.add(OTHER_USER.email);
    const stateBefore = await h.tables.state();

    const summary = await check();
    // member-missing, member-unexpected, no rules file, no rules dataset.
    expect(summary.differences).toBe(4);
    expect(published()).toEqual([4]);
    expect(qs.changes).toEqual([]);
    expect([...qs.groups.get(groupNameOf('c-north'))!]).toEqual([OTHER_USER.email]);
    const saved = (await h.tables.state()).find((item) => item.pk === 'CHECK');
    expect(JSON.parse(String(saved?.check))).toMatchObject({
      checkedBy: 'schedule',
      fix: false,
      differences: expect.any(Array),
    });
    expect((await h.tables.state()).filter((item) => item.pk !== 'CHECK')).toEqual(stateBefore);
    expect(await h.tables.audit()).toEqual([]);
  });

  it('publishes 0 when QuickSight matches the portal, so the missed-check alarm sees the run', async () => {
    qs.objects.set(
      'company-rules/rules.csv',
      `UserARN,GroupARN,company\n,arn:aws:quicksight:us-east-2:123456789012:group/default/${groupNameOf('c-north')},Northwind Manufacturing\n`,
    );
    qs.dataSets.set('portal-company-rules', { DataSetId: 'portal-company-rules' });
    qs.ingestions.push({ id: 'rules-1', status: 'COMPLETED', created: new Date() });
    expect(await check()).toMatchObject({ differences: 0 });
    expect(published()).toEqual([0]);
  });

  it("names a failed rules data source's status and QuickSight's ErrorInfo, and leaves the source to an admin's Fix", async () => {
    qs.dataSources.set('portal-company-rules', {
      Status: 'CREATION_FAILED',
      ErrorInfo: {
        Type: 'ACCESS_DENIED',
        Message: 'Amazon QuickSight could not read s3://portal-company-rules/company-rules/manifest.json',
      },
    });
    await check();
    const saved = (await h.tables.state()).find((item) => item.pk === 'CHECK');
    const differences = (JSON.parse(String(saved?.check)) as { differences: { kind: string; found: string }[] })
      .differences;
    expect(differences).toContainEqual(
      expect.objectContaining({
        kind: 'rules-not-loaded',
        found:
          'data source portal-company-rules CREATION_FAILED (ACCESS_DENIED: Amazon QuickSight could not read s3://portal-company-rules/company-rules/manifest.json)',
      }),
    );
    expect(qs.changes).toEqual([]);
    expect(qs.dataSources.get('portal-company-rules')?.Status).toBe('CREATION_FAILED');
  });
});

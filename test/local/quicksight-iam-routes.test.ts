import { describe, expect, it } from 'vitest';
import { type ApiRequest } from '#local/iam/services.ts';
import { quicksightRules } from '#local/iam/quicksight-rules.ts';
import { API_OPERATIONS } from '#emulators/quicksight/server.ts';
import { ACCOUNT_ID, REGION } from './quicksight-support.ts';

/**
 * Every route the QuickSight emulator answers is one the IAM gate knows, as the action of the
 * same name: a route missing from the gate's table would be refused as malformed in local mode.
 */

const scope = { region: REGION, accountId: ACCOUNT_ID };
const LABELS: Record<string, string> = { AwsAccountId: ACCOUNT_ID, Namespace: 'default' };

function request(method: string, path: string, body: Record<string, unknown> = {}): ApiRequest {
  return { method, path, headers: {}, body: Buffer.from(JSON.stringify(body)) };
}

function classify(method: string, path: string, body?: Record<string, unknown>) {
  const classified = quicksightRules.classify(request(method, path, body));
  if (classified.kind !== 'iam') throw new Error(`${method} ${path} is classified ${classified.kind}`);
  return classified.call(scope);
}

const arn = (resource: string) => `arn:aws:quicksight:${REGION}:${ACCOUNT_ID}:${resource}`;

/**
 * Operations the Service Authorization Reference lists no action for, authorized under another's:
 * DescribeDashboardDefinition needs quicksight:DescribeDashboard.
 */
const AUTHORIZED_AS: Record<string, string> = { DescribeDashboardDefinition: 'DescribeDashboard' };

describe('IAM gate table of the QuickSight emulator', () => {
  it.each(API_OPERATIONS.map((operation) => [operation.name, operation] as const))(
    'authorizes %s as its action in the Service Authorization Reference',
    (name, operation) => {
      const path = operation.path.replace(
        /\{(\w+)\}/g,
        (_match, label: string) => LABELS[label] ?? `sample-${label.toLowerCase()}`,
      );
      expect(classify(operation.method, path).action).toBe(`quicksight:${AUTHORIZED_AS[name] ?? name}`);
    },
  );

  it('authorizes snapshot jobs on the job (dashboardSnapshotJob), a start on the job its body names', () => {
    const base = `/accounts/${ACCOUNT_ID}/dashboards/sales`;
    expect(classify('POST', `${base}/snapshot-jobs`, { SnapshotJobId: 'job-1' }).resources).toEqual([
      arn('dashboard/sales/snapshot-job/job-1'),
    ]);
    expect(classify('GET', `${base}/snapshot-jobs/job-1`).resources).toEqual([
      arn('dashboard/sales/snapshot-job/job-1'),
    ]);
    expect(classify('GET', `${base}/snapshot-jobs/job-1/result`).resources).toEqual([
      arn('dashboard/sales/snapshot-job/job-1'),
    ]);
  });

  it('authorizes group, membership, data source, dataset and ingestion calls on their resources', () => {
    const base = `/accounts/${ACCOUNT_ID}`;
    expect(classify('POST', `${base}/namespaces/default/groups`, { GroupName: 'portal-c1' }).resources).toEqual([
      arn('group/default/portal-c1'),
    ]);
    expect(classify('GET', `${base}/namespaces/default/groups`).resources).toEqual([arn('group/default/*')]);
    expect(classify('PUT', `${base}/namespaces/default/groups/portal-c1/members/a%40example.com`).resources).toEqual([
      arn('group/default/portal-c1'),
    ]);
    // No resource type in the Service Authorization Reference: IAM authorizes CreateDataSource and ListIngestions on
    // "*" only.
    expect(classify('POST', `${base}/data-sources`, { DataSourceId: 'rules-source' }).resources).toEqual(['*']);
    expect(
      classify('POST', `${base}/data-sets`, {
        DataSetId: 'rules',
        PhysicalTableMap: { t: { S3Source: { DataSourceArn: arn('datasource/rules-source') } } },
      }).resources,
    ).toEqual([arn('datasource/rules-source')]);
    expect(classify('PUT', `${base}/data-sets/rules/ingestions/rules-1`).resources).toEqual([
      arn('dataset/rules/ingestion/rules-1'),
    ]);
    expect(classify('GET', `${base}/data-sets/rules/ingestions`).resources).toEqual(['*']);
  });
});

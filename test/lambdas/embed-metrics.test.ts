import {
  GenerateEmbedUrlForRegisteredUserCommand,
  QuickSightUserNotFoundException,
  ThrottlingException,
} from '@aws-sdk/client-quicksight';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi, type MockInstance } from 'vitest';
import { QUICKSIGHT_FAILURES_METRIC } from '#contracts/metrics.ts';
import { type Handler, type Harness, invoke, loadHandler, startHarness, USER } from './support/harness.ts';

const NAMESPACE = 'Portal-metrics-test';

let h: Harness;
let handler: Handler;
let stdout: MockInstance<typeof process.stdout.write>;

beforeAll(async () => {
  h = await startHarness({ POWERTOOLS_METRICS_NAMESPACE: NAMESPACE, POWERTOOLS_SERVICE_NAME: 'embed' });
  handler = await loadHandler('embed');
});
afterAll(() => h.close());
beforeEach(async () => {
  await h.reset();
  await h.tables.put('VIEWS_TABLE', {
    id: 'v-sales',
    userEmail: USER.email,
    quicksightDashboardId: 'sales',
    name: 'Sales',
    createdAt: 't',
    updatedAt: 't',
  });
  stdout = vi.spyOn(process.stdout, 'write').mockImplementation(() => true);
});
afterEach(() => stdout.mockRestore());

interface EmfLine {
  _aws: {
    CloudWatchMetrics: { Namespace: string; Dimensions: string[][]; Metrics: { Name: string; Unit: string }[] }[];
  };
  [key: string]: unknown;
}

/** The EMF lines written to stdout since the test began (the log is the metrics channel). */
const emfLines = (): EmfLine[] =>
  stdout.mock.calls
    .flatMap(([chunk]) => String(chunk).split('\n'))
    .filter((line) => line.includes('"CloudWatchMetrics"'))
    .map((line) => JSON.parse(line) as EmfLine);

const embedSales = async () =>
  invoke(handler, { method: 'GET', token: await h.token(USER), headers: { 'x-dashboard-id': 'sales' } });

describe('embed function metrics', () => {
  it('emits one QuickSightFailures count in EMF when QuickSight fails the request', async () => {
    h.quicksight
      .on(GenerateEmbedUrlForRegisteredUserCommand)
      .rejects(new ThrottlingException({ message: 'Rate exceeded', $metadata: {} }));
    const res = await embedSales();
    expect(res.status).toBe(502);
    const lines = emfLines();
    expect(lines).toHaveLength(1);
    const [line] = lines;
    expect(line!._aws.CloudWatchMetrics).toEqual([
      {
        Namespace: NAMESPACE,
        Dimensions: [['service']],
        Metrics: [{ Name: QUICKSIGHT_FAILURES_METRIC, Unit: 'Count' }],
      },
    ]);
    expect(line).toMatchObject({ service: 'embed', [QUICKSIGHT_FAILURES_METRIC]: 1, errorName: 'ThrottlingException' });
  });

  it('counts QuickSight refusing access as a failure too', async () => {
    h.quicksight
      .on(GenerateEmbedUrlForRegisteredUserCommand)
      .rejects(Object.assign(new Error('denied'), { name: 'AccessDeniedException' }));
    const res = await embedSales();
    expect(res.status).toBe(403);
    expect(emfLines().map((line) => line[QUICKSIGHT_FAILURES_METRIC])).toEqual([1]);
  });

  it('emits nothing for a working embed or a user QuickSight does not know yet', async () => {
    h.quicksight
      .on(GenerateEmbedUrlForRegisteredUserCommand)
      .resolves({ EmbedUrl: 'https://quicksight.example.com/embed/abc', Status: 200, RequestId: 'r' });
    expect((await embedSales()).status).toBe(200);
    h.quicksight
      .on(GenerateEmbedUrlForRegisteredUserCommand)
      .rejects(new QuickSightUserNotFoundException({ message: 'no user', $metadata: {} }));
    expect((await embedSales()).status).toBe(404);
    expect(emfLines()).toEqual([]);
    // Nor Powertools' warning about an empty flush.
    expect(stdout.mock.calls.map(([chunk]) => String(chunk)).join('')).not.toContain(
      'No application metrics to publish',
    );
  });
});

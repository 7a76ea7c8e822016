import {
  DescribeAccountSubscriptionCommand,
  DescribeNamespaceCommand,
  QuickSightClient,
} from '@aws-sdk/client-quicksight';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { DeleteItemCommand, DynamoDBClient, PutItemCommand } from '@aws-sdk/client-dynamodb';
import { LOCAL_CREDENTIALS, localTableName } from '#clients/local-stack.ts';
import { stateTable } from '#contracts/tables.ts';
import { parseCommand } from '#tools/support/cli.ts';
import { deploymentConfig } from '#tools/support/config.ts';
import { runTool, sharedTestStack, type TestStack } from './support/run-tool.ts';

describe('npm run doctor', () => {
  let stack: TestStack;
  /** One run against the stack as it started, read by the tests that check what it reports. */
  let asStarted: ReturnType<typeof runTool> | undefined;
  const runAsStarted = () => (asStarted ??= runTool('doctor', stack.localArgs));

  beforeAll(() => {
    stack = sharedTestStack();
  });

  it('passes against the local stack, and reports the AWS-only checks as not applicable rather than passed', async () => {
    const { code, stdout } = await runAsStarted();
    expect(code).toBe(0);
    for (const title of [
      'Credentials',
      'QuickSight subscription',
      'QuickSight identity region and namespace',
      'SES sender identity',
      'Support recipient',
      'Embed origins',
    ]) {
      expect(stdout).toMatch(new RegExp(`^\\[PASS\\] ${title}:`, 'm'));
    }
    for (const title of ['CDK bootstrap', 'Cognito domain prefix', 'Certificate \\(us-east-1\\)', 'WAF web ACL']) {
      expect(stdout).toMatch(new RegExp(`^\\[N/A \\] ${title}: not applicable in local mode`, 'm'));
    }
    expect(stdout).toContain('ENTERPRISE edition');
    // Local SES is a sandbox, as a new AWS account's is: a warning with the way out, not a blocker.
    expect(stdout).toMatch(/^\[WARN\] SES account: in the sandbox/m);
    expect(stdout).toContain('Request production access');
  });

  it('checks row-level security: the rules dataset is loaded, and each catalogue dashboard that is not company-scoped is named as a warning', async () => {
    const { code, stdout } = await runAsStarted();
    expect(code).toBe(0);
    // The seed's companies made the portal create and load the rules dataset.
    expect(stdout).toMatch(
      /^\[PASS\] Row-level-security rules dataset: [\w-]+-company-rules: last ingestion \S+ completed/m,
    );
    // Three sample dashboards read the company-scoped facts; the benchmarks dashboard holds every company's data.
    expect(stdout).toMatch(/^\[WARN\] Company scope of catalogue dashboards: 1 of 4 not company-scoped/m);
    expect(stdout).toContain('- market-benchmarks: dataset industry-benchmarks: no row-level security');
    expect(stdout).not.toMatch(/- (sales-performance|distributor-scorecard|inventory-margins):/);
    expect(stdout).toContain('Row-level security > User-based rules');
    expect(stdout).toMatch(/^\[PASS\] Company names: 3 companies, none with a comma or a double quote in its name$/m);
    // The rules' author (local mode's authors group) exists, and the data source QuickSight created is visible to it.
    expect(stdout).toMatch(/^\[PASS\] QuickSight author of the rules: group portal-authors of namespace default$/m);
    expect(stdout).toMatch(
      /^\[PASS\] Row-level-security rules data source: [\w-]+-company-rules is CREATION_SUCCESSFUL; the rules are visible to arn:aws:quicksight:us-east-2:000000000000:group\/default\/portal-authors$/m,
    );
    expect(stdout).toMatch(/^\[N\/A \] SPICE capacity: not applicable in local mode/m);
  });

  it('fails on a company name the rules would read as several companies, naming it and how to fix it', async () => {
    const { endpoint } = stack.info.dynamodb;
    const dynamodb = new DynamoDBClient({
      endpoint,
      region: stack.info.region,
      credentials: LOCAL_CREDENTIALS,
    });
    // A company made before the portal refused such names (lambdas/shared/data/companies.ts keeps them so).
    const legacy = { TableName: localTableName(stateTable), Key: { pk: { S: 'COMPANY' }, sk: { S: 'c0ffee000001' } } };
    try {
      await dynamodb.send(
        new PutItemCommand({
          TableName: legacy.TableName,
          Item: {
            ...legacy.Key,
            name: { S: 'Evil, Contoso Distribution' },
            kind: { S: 'manufacturer' },
            createdAt: { S: '2026-01-01T00:00:00.000Z' },
            updatedAt: { S: '2026-01-01T00:00:00.000Z' },
          },
        }),
      );
      const { code, stdout } = await runTool('doctor', stack.localArgs);
      expect(code).toBe(1);
      expect(stdout).toMatch(
        /^\[FAIL\] Company names: 1 of 4 company names hold a comma or a double quote, which QuickSight's row-level security reads as several companies/m,
      );
      expect(stdout).toContain('- Evil, Contoso Distribution');
      expect(stdout).toContain('Rename each company named on the Companies tab of the admin portal');
    } finally {
      await dynamodb.send(new DeleteItemCommand(legacy));
      dynamodb.destroy();
    }
  });

  it('fails with how to start one when no local stack runs in the data directory', async () => {
    const empty = await mkdtemp(join(tmpdir(), 'portal-tools-empty-'));
    try {
      const { code, stderr } = await runTool('doctor', ['--local', '--data-dir', empty]);
      expect(code).toBe(1);
      expect(stderr).toContain('No local stack is running');
      expect(stderr).toContain('npm start');
    } finally {
      await rm(empty, { recursive: true, force: true });
    }
  });

  // Each refusal is read where doctor makes it (its command line, then the configuration of an AWS
  // target); two of them also run the tool, for the exit code and the usage it prints.
  it.each([
    [['--bogus'], "Unknown option '--bogus'"],
    [['--local', '-c', 'region=us-east-1'], '-c configures a deployment'],
    [['--data-dir', '/tmp/x'], '--data-dir goes with --local'],
    [['--local', '--profile', 'prod'], '--profile is for AWS'],
    [['-c', 'region'], '-c expects key=value'],
    [['extra'], 'Unexpected argument: extra'],
    [['-c', 'region=nowhere'], 'region: must be an AWS region code'],
    [['-c', 'allowedOrigins=http://10.0.0.1'], 'allowedOrigins'],
  ])('refuses %j with a clear message', (args, message) => {
    expect(() => deploymentConfig(parseCommand(args, {}, 0).target.context)).toThrow(message);
  });

  it.each([
    [['--bogus'], "Unknown option '--bogus'"],
    [['-c', 'region=nowhere'], 'region: must be an AWS region code'],
  ])('exits 2 on %j with the message and the usage, calling nothing', async (args, message) => {
    const { code, stderr } = await runTool('doctor', args);
    expect(code).toBe(2);
    expect(stderr).toContain(message);
    expect(stderr).toContain('Usage: npm run doctor');
  });

  it('reports missing AWS credentials as a blocker with the command that fixes it', async () => {
    const { code, stdout } = await runTool('doctor', ['-c', 'sesSenderAddress=no-reply@corp.example']);
    expect(code).toBe(1);
    expect(stdout).toMatch(/^\[FAIL\] AWS credentials:/m);
    expect(stdout).toContain('aws sso login');
    expect(stdout).toContain('1 blocker found');
  });

  describe('QuickSight read operations of the emulator, through the IAM gate', () => {
    const client = (credentials: { accessKeyId: string; secretAccessKey: string } = LOCAL_CREDENTIALS) =>
      new QuickSightClient({
        endpoint: stack.info.quicksight.endpoint,
        region: stack.info.region,
        credentials,
      });

    it('describes the subscription and the namespace in the SDK model shapes', async () => {
      const { accountId } = stack.info.quicksight;
      const subscription = await client().send(new DescribeAccountSubscriptionCommand({ AwsAccountId: accountId }));
      expect(subscription.AccountInfo).toMatchObject({
        Edition: 'ENTERPRISE',
        AccountSubscriptionStatus: 'ACCOUNT_CREATED',
      });
      expect(subscription.Status).toBe(200);
      const { Namespace } = await client().send(
        new DescribeNamespaceCommand({ AwsAccountId: accountId, Namespace: 'default' }),
      );
      expect(Namespace).toEqual({
        Name: 'default',
        Arn: `arn:aws:quicksight:${stack.info.region}:${accountId}:namespace/default`,
        CapacityRegion: stack.info.region,
        CreationStatus: 'CREATED',
        IdentityStore: 'QUICKSIGHT',
      });
    });

    it('answers an unknown namespace and another account with the documented errors', async () => {
      const { accountId } = stack.info.quicksight;
      await expect(
        client().send(new DescribeNamespaceCommand({ AwsAccountId: accountId, Namespace: 'portal' })),
      ).rejects.toMatchObject({
        name: 'ResourceNotFoundException',
        $metadata: { httpStatusCode: 404 },
      });
      await expect(
        client().send(new DescribeAccountSubscriptionCommand({ AwsAccountId: '111122223333' })),
      ).rejects.toMatchObject({
        name: 'AccessDeniedException',
      });
    });

    it('holds a function to its policy: the embed function may not describe the account', async () => {
      const embed = client(stack.info.functionCredentials.embed);
      await expect(
        embed.send(new DescribeAccountSubscriptionCommand({ AwsAccountId: stack.info.quicksight.accountId })),
      ).rejects.toMatchObject({
        name: 'AccessDeniedException',
        message: expect.stringContaining('quicksight:DescribeAccountSubscription'),
      });
      await expect(
        embed.send(
          new DescribeNamespaceCommand({ AwsAccountId: stack.info.quicksight.accountId, Namespace: 'default' }),
        ),
      ).rejects.toMatchObject({
        name: 'AccessDeniedException',
        message: expect.stringContaining(':namespace/default'),
      });
    });
  });
});

import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CreateDataSourceCommand, QuickSightClient } from '@aws-sdk/client-quicksight';
import { DeleteObjectCommand, PutObjectCommand, S3Client } from '@aws-sdk/client-s3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MANIFEST_KEY, RULES_KEY } from '#contracts/company-rules.ts';
import { LOCAL_ACCOUNT_ID, LOCAL_CREDENTIALS } from '#clients/local-stack.ts';
import type { SynthesizedDeployment } from '#local/aws/deployment.ts';
import { localDeployment } from '#local/aws/local-deployment.ts';
import { localResourceNames } from '#local/aws/resolve.ts';
import { Closers } from '#local/closers.ts';
import { templateValues, type LocalEndpoints } from '#local/environment.ts';
import { startQuickSightEmulator } from '#emulators/quicksight/index.ts';
import { ObjectAccessDenied } from '#emulators/quicksight/ingest.ts';
import { startS3StandIn } from '#emulators/s3/index.ts';
import { startIamGate } from '#local/iam/gate.ts';
import { LocalIam } from '#local/iam/policies.ts';
import { s3Rules } from '#local/iam/services.ts';
import { roleReads, type RoleReads } from '#local/quicksight-access.ts';
import { dataSourceCreated, manifestFor } from './quicksight-support.ts';

/**
 * Local QuickSight reads S3 as QuickSight does, with the data source's role: the template's
 * rules read role is a principal of the local IAM held to its own policy (the user guide's
 * example for S3 data sources: s3:ListBucket and s3:GetBucketLocation on the bucket,
 * s3:GetObject and s3:GetObjectVersion on the objects,
 * https://docs.aws.amazon.com/quicksight/latest/user/security-create-iam-role-athena-s3.html),
 * and every read goes through local S3's IAM gate. A data source whose role may not read its
 * manifest ends CREATION_FAILED with ErrorInfo ACCESS_DENIED.
 */

const REGION = 'us-east-2';
const host = '127.0.0.1';
const closers = new Closers();
let root: string;
let deployment: SynthesizedDeployment;
let bucket: string;
let roleArn: string;
let reads: RoleReads;
let admin: S3Client;
let quicksight: QuickSightClient;

beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'quicksight-role-reads-'));
  deployment = await localDeployment();
  const names = localResourceNames(deployment.stackName);
  bucket = names.companyRulesBucket;
  roleArn = `arn:aws:iam::${LOCAL_ACCOUNT_ID}:role/${names.companyRulesReadRole}`;
  const iam = new LocalIam(LOCAL_ACCOUNT_ID);
  iam.add({
    name: 'administrator',
    arn: `arn:aws:iam::${LOCAL_ACCOUNT_ID}:user/local-administrator`,
    ...LOCAL_CREDENTIALS,
  });
  const standIn = await startS3StandIn({
    dataDir: join(root, 's3'),
    buckets: [bucket],
    host,
    port: 0,
    log: () => undefined,
  });
  closers.add(() => standIn.close());
  const gate = await startIamGate({ rules: s3Rules, iam, upstream: standIn.url, host, port: 0, log: () => undefined });
  closers.add(() => gate.close());
  reads = roleReads(iam, () => gate.url, REGION);
  closers.add(async () => reads.close());
  const local: LocalEndpoints = {
    region: REGION,
    siteOrigin: 'http://localhost:4400',
    cognito: {
      endpoint: 'http://127.0.0.1:1',
      userPoolId: 'us-east-2_AbCdEf123',
      clientId: 'client',
      jwks: { keys: [] },
    },
    dynamodbEndpoint: 'http://127.0.0.1:1',
    quicksightEndpoint: 'http://127.0.0.1:1',
    sesEndpoint: 'http://127.0.0.1:1',
    s3Endpoint: gate.url,
  };
  reads.addRoles(deployment, templateValues(deployment, local, 'placeholder'));

  admin = new S3Client({ endpoint: gate.url, region: REGION, credentials: LOCAL_CREDENTIALS, forcePathStyle: true });
  closers.add(async () => admin.destroy());
  const put = (Key: string, Body: string) => admin.send(new PutObjectCommand({ Bucket: bucket, Key, Body }));
  await put(MANIFEST_KEY, manifestFor(bucket, RULES_KEY));
  await put(RULES_KEY, 'UserARN,GroupARN,company\n,arn:g/1,Northwind Manufacturing\n');
  await put('exports/manifest.json', manifestFor(bucket, 'exports/data.csv'));

  const emulator = await startQuickSightEmulator({
    port: 0,
    dataDir: join(root, 'quicksight'),
    accountId: LOCAL_ACCOUNT_ID,
    region: REGION,
    readObject: reads.readObject,
    listObjects: reads.listObjects,
    dataSourceCreationMs: 50,
  });
  closers.add(() => emulator.close());
  quicksight = new QuickSightClient({ endpoint: emulator.url, region: REGION, credentials: LOCAL_CREDENTIALS });
  closers.add(async () => quicksight.destroy());
});

afterAll(async () => {
  await closers.closeAll();
  await rm(root, { recursive: true, force: true });
});

/** Creates an S3 data source reading `manifestKey` with `role` and waits for the end of its creation. */
async function dataSource(id: string, manifestKey: string, role: string) {
  await quicksight.send(
    new CreateDataSourceCommand({
      AwsAccountId: LOCAL_ACCOUNT_ID,
      DataSourceId: id,
      Name: id,
      Type: 'S3',
      DataSourceParameters: {
        S3Parameters: { ManifestFileLocation: { Bucket: bucket, Key: manifestKey }, RoleArn: role },
      },
    }),
  );
  return dataSourceCreated({ client: quicksight }, id, LOCAL_ACCOUNT_ID);
}

describe('QuickSight reading S3 with the rules read role', () => {
  it('reads the rules file and its manifest; a rules file not written yet is "no such object" (the role may list the bucket)', async () => {
    const rules = await reads.readObject(bucket, RULES_KEY, roleArn);
    expect(rules).toContain('UserARN,GroupARN,company');
    expect(await reads.readObject(bucket, MANIFEST_KEY, roleArn)).toContain(RULES_KEY);
    expect(await reads.listObjects(bucket, 'company-rules/', roleArn)).toEqual([MANIFEST_KEY, RULES_KEY]);
    await admin.send(new DeleteObjectCommand({ Bucket: bucket, Key: RULES_KEY }));
    expect(await reads.readObject(bucket, RULES_KEY, roleArn)).toBeUndefined();
    await admin.send(new PutObjectCommand({ Bucket: bucket, Key: RULES_KEY, Body: rules }));
  });

  it('is refused by the IAM gate every object but the rules file and its manifest', async () => {
    await expect(reads.readObject(bucket, 'exports/manifest.json', roleArn)).rejects.toBeInstanceOf(ObjectAccessDenied);
    await expect(reads.readObject(bucket, 'company-rules/other.csv', roleArn)).rejects.toThrow(
      /not authorized to perform: s3:GetObject on resource: arn:aws:s3:::[\w-]+\/company-rules\/other\.csv/,
    );
  });

  it('reads nothing without a role, or with a role the template does not define', async () => {
    await expect(reads.readObject(bucket, RULES_KEY)).rejects.toThrow('no account-wide QuickSight service role');
    await expect(reads.readObject(bucket, RULES_KEY, `arn:aws:iam::${LOCAL_ACCOUNT_ID}:role/other`)).rejects.toThrow(
      'the template defines no such role',
    );
  });

  it('creates a data source over the rules manifest, and fails one over a manifest the role may not read (ACCESS_DENIED)', async () => {
    expect(await dataSource('rules', MANIFEST_KEY, roleArn)).toMatchObject({ Status: 'CREATION_SUCCESSFUL' });
    const failed = await dataSource('exports', 'exports/manifest.json', roleArn);
    expect(failed).toMatchObject({ Status: 'CREATION_FAILED', ErrorInfo: { Type: 'ACCESS_DENIED' } });
    expect(failed?.ErrorInfo?.Message).toContain(`s3://${bucket}/exports/manifest.json`);
    expect(failed?.ErrorInfo?.Message).toContain(roleArn);
  });
});

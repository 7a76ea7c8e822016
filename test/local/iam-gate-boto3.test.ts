import { execFile, execFileSync } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Closers } from '#local/closers.ts';
import { USER_POOL_CLIENT } from '#contracts/user-pool-client.ts';
import { startCognitoEmulator } from '#emulators/cognito/index.ts';
import { startDynamoDb } from '#local/dynamodb.ts';
import {
  LOCAL_ACCOUNT_ID,
  LOCAL_CREDENTIALS,
  LOCAL_REGION,
  SUPPORT_FROM_ADDRESS,
  SUPPORT_TO_ADDRESS,
} from '#clients/local-stack.ts';
import { startIamGate } from '#local/iam/gate.ts';
import { LocalIam } from '#local/iam/policies.ts';
import { cognitoRules, dynamodbRules, sesRules, type ServiceRules } from '#local/iam/services.ts';
import { quicksightRules } from '#local/iam/quicksight-rules.ts';
import { startMailCapture } from '#emulators/ses/capture.ts';
import { IdentityStore } from '#emulators/ses/identities.ts';
import { startQuickSightEmulator } from '#emulators/quicksight/index.ts';

/**
 * Unmodified boto3 (Debian's python3-boto3) and botocore as the AWS CLI uses it, against each
 * local endpoint behind its IAM gate. The gate checks SigV4 as the IAM User Guide describes it:
 * - https://docs.aws.amazon.com/IAM/latest/UserGuide/reference_sigv-create-signed-request.html
 *   (the canonical request holds exactly the headers listed in SignedHeaders; boto3 does not sign
 *   x-amz-content-sha256, and a header added after signing is not part of it)
 * - https://docs.aws.amazon.com/IAM/latest/UserGuide/reference_sigv-signing-elements.html
 *   (the credential scope's date, region and service; a request must arrive within 5 minutes
 *   of its time stamp, else "Signature expired: ... is now earlier than ... (... - 5 min.)")
 * - https://docs.aws.amazon.com/IAM/latest/UserGuide/signature-v4-troubleshooting.html
 *   (a wrong secret or a changed signed header: the signature does not match)
 * Each refusal is answered in the service's own error format: the JSON protocol (Cognito,
 * DynamoDB) with HTTP 400, the REST-JSON services (QuickSight, SES v2) with HTTP 403, and it
 * changes nothing.
 */

const SCRIPT = fileURLToPath(new URL('./support/boto3-calls.py', import.meta.url));
const PYTHON = '/usr/bin/python3';
const host = '127.0.0.1';
const closers = new Closers();
let dataDir: string;
let userPoolId: string;
let delivered: () => Promise<string[]>;
const endpoints = { dynamodb: '', cognito: '', quicksight: '', ses: '' };

interface Call {
  library?: 'boto3' | 'botocore';
  service: string;
  endpoint: string;
  operation: string;
  params: Record<string, unknown>;
  region?: string;
  access_key?: string;
  secret_key?: string;
  clock_offset_seconds?: number;
  tamper?: boolean;
  unsigned_header?: boolean;
}
interface Outcome {
  ok: boolean;
  status: number;
  code?: string;
  message?: string;
  response?: Record<string, unknown>;
}

/** Runs every call in one Python process (importing boto3 takes most of a second). */
function runCalls(calls: Call[]): Promise<Outcome[]> {
  const input = JSON.stringify(
    calls.map((call) => ({
      region: LOCAL_REGION,
      access_key: LOCAL_CREDENTIALS.accessKeyId,
      secret_key: LOCAL_CREDENTIALS.secretAccessKey,
      ...call,
    })),
  );
  return new Promise((resolve, reject) => {
    const child = execFile(
      PYTHON,
      [SCRIPT],
      { timeout: 60_000, maxBuffer: 16 * 1024 * 1024 },
      (error, stdout, stderr) => {
        if (error) reject(new Error(`boto3 calls failed: ${stderr || error.message}`));
        else resolve(JSON.parse(stdout) as Outcome[]);
      },
    );
    child.stdin!.end(input);
  });
}

beforeAll(async () => {
  try {
    execFileSync(PYTHON, ['-c', 'import boto3, botocore'], { stdio: 'pipe' });
  } catch {
    throw new Error(
      "These tests need boto3 for /usr/bin/python3: install Debian's python3-boto3 (apt-get install python3-boto3; .ci/run does this).",
    );
  }
  dataDir = await mkdtemp(join(tmpdir(), 'iam-gate-boto3-'));
  const iam = new LocalIam(LOCAL_ACCOUNT_ID);
  iam.add({
    name: 'administrator',
    arn: `arn:aws:iam::${LOCAL_ACCOUNT_ID}:user/local-administrator`,
    ...LOCAL_CREDENTIALS,
  });
  const gate = async (rules: ServiceRules, upstream: string) => {
    const started = await startIamGate({ rules, iam, upstream, host, port: 0, log: () => undefined });
    closers.add(() => started.close());
    return started.url;
  };
  const [dynamodb, cognito, quicksight, mail] = await Promise.all([
    startDynamoDb({ host, port: 0, dataDir, region: LOCAL_REGION, credentials: LOCAL_CREDENTIALS }),
    startCognitoEmulator({
      port: 0,
      dataDir: join(dataDir, 'cognito'),
      region: LOCAL_REGION,
      client: USER_POOL_CLIENT,
      sendEmail: async () => undefined,
    }),
    startQuickSightEmulator({
      port: 0,
      dataDir: join(dataDir, 'quicksight'),
      accountId: LOCAL_ACCOUNT_ID,
      region: LOCAL_REGION,
    }),
    startMailCapture({
      host,
      port: 0,
      apiPort: 0,
      dataDir,
      verifiedIdentities: [SUPPORT_FROM_ADDRESS, SUPPORT_TO_ADDRESS],
    }),
  ]);
  closers.add(() => dynamodb.close());
  closers.add(() => cognito.close());
  closers.add(() => quicksight.close());
  closers.add(() => mail.close());
  userPoolId = cognito.userPoolId;
  const identities = new IdentityStore();
  identities.verify([SUPPORT_FROM_ADDRESS, SUPPORT_TO_ADDRESS]);
  endpoints.dynamodb = await gate(dynamodbRules, dynamodb.endpoint);
  endpoints.cognito = await gate(cognitoRules, cognito.url);
  endpoints.quicksight = await gate(quicksightRules, quicksight.url);
  endpoints.ses = await gate(
    sesRules({ sandbox: true, identityOf: (address) => identities.identityCovering(address) ?? address }),
    mail.sesEndpoint,
  );
  delivered = async () =>
    ((await (await fetch(mail.apiUrl)).json()) as { subject: string }[]).map((message) => message.subject);
}, 120_000);

afterAll(async () => {
  await closers.closeAll();
  if (dataDir) await rm(dataDir, { recursive: true, force: true });
});

/** The ways a call is made: correctly (with a header added after signing), and each way it must fail. */
const VARIANTS = {
  right: { unsigned_header: true },
  wrongSecret: { secret_key: 'not-the-secret-key' },
  unknownKey: { access_key: 'AKIAUNKNOWNLOCALKEY0', secret_key: 'anything' },
  sixMinutesOld: { clock_offset_seconds: -6 * 60 },
  wrongRegion: { region: 'us-west-1' },
  tamperedHeader: { tamper: true },
} satisfies Record<string, Partial<Call>>;
type Variant = keyof typeof VARIANTS;
const VARIANT_NAMES = Object.keys(VARIANTS) as Variant[];

/** One write per variant, each with its own name, so what a refused call would have made is visible. */
interface ServiceCase {
  service: string;
  endpoint: () => string;
  operation: string;
  params: (name: string) => Record<string, unknown>;
  /** Protocol status of a signature refusal. */
  status: number;
  /** The read (as the administrator) that lists what the service holds afterwards; SES: the captured mail. */
  read?: () => Call;
  namesIn: (read: Outcome | undefined) => Promise<string[]>;
}

const name = (service: string, variant: Variant) => `boto3-${service}-${variant.toLowerCase()}`;

type ServiceKey = 'dynamodb' | 'cognito' | 'quicksight' | 'ses';
const CASES: Record<ServiceKey, ServiceCase> = {
  dynamodb: {
    service: 'dynamodb',
    endpoint: () => endpoints.dynamodb,
    operation: 'put_item',
    params: (pk) => ({ TableName: 'local-State', Item: { pk: { S: pk }, sk: { S: 'BOTO3' } } }),
    status: 400,
    read: () => ({
      service: 'dynamodb',
      endpoint: endpoints.dynamodb,
      operation: 'scan',
      params: { TableName: 'local-State', ConsistentRead: true },
    }),
    namesIn: async (scan) => ((scan!.response!.Items ?? []) as { pk: { S: string } }[]).map((item) => item.pk.S),
  },
  cognito: {
    service: 'cognito-idp',
    endpoint: () => endpoints.cognito,
    operation: 'admin_create_user',
    params: (user) => ({ UserPoolId: userPoolId, Username: `${user}@example.com`, MessageAction: 'SUPPRESS' }),
    status: 400,
    read: () => ({
      service: 'cognito-idp',
      endpoint: endpoints.cognito,
      operation: 'list_users',
      params: { UserPoolId: userPoolId },
    }),
    namesIn: async (list) =>
      ((list!.response!.Users ?? []) as { Attributes: { Name: string; Value: string }[] }[]).map(
        (user) =>
          user.Attributes.find((attribute) => attribute.Name === 'email')?.Value.replace('@example.com', '') ?? '',
      ),
  },
  quicksight: {
    service: 'quicksight',
    endpoint: () => endpoints.quicksight,
    operation: 'register_user',
    params: (user) => ({
      AwsAccountId: LOCAL_ACCOUNT_ID,
      Namespace: 'default',
      IdentityType: 'QUICKSIGHT',
      Email: `${user}@example.com`,
      UserName: user,
      UserRole: 'READER',
    }),
    status: 403,
    read: () => ({
      service: 'quicksight',
      endpoint: endpoints.quicksight,
      operation: 'list_users',
      params: { AwsAccountId: LOCAL_ACCOUNT_ID, Namespace: 'default' },
    }),
    namesIn: async (list) => ((list!.response!.UserList ?? []) as { UserName: string }[]).map((user) => user.UserName),
  },
  ses: {
    service: 'sesv2',
    endpoint: () => endpoints.ses,
    operation: 'send_email',
    params: (subject) => ({
      FromEmailAddress: SUPPORT_FROM_ADDRESS,
      Destination: { ToAddresses: [SUPPORT_TO_ADDRESS] },
      Content: { Simple: { Subject: { Data: subject }, Body: { Text: { Data: 'Sent by boto3' } } } },
    }),
    status: 403,
    namesIn: () => delivered(),
  },
};
const SERVICE_KEYS = Object.keys(CASES) as ServiceKey[];

/** botocore as the AWS CLI makes a call: reading back the item boto3 wrote, with a right and a 6-minute-old clock. */
const cliRead = (): Call => ({
  library: 'botocore',
  service: 'dynamodb',
  endpoint: endpoints.dynamodb,
  operation: 'get_item',
  params: {
    TableName: 'local-State',
    Key: { pk: { S: name('dynamodb', 'right') }, sk: { S: 'BOTO3' } },
    ConsistentRead: true,
  },
});

const outcomes = {} as Record<ServiceKey, Record<Variant, Outcome>>;
const afterwards = {} as Record<ServiceKey, string[]>;
let cli: Outcome[];

beforeAll(async () => {
  // Every call of every service in one Python process, then the reads that show what they changed.
  const writes = SERVICE_KEYS.flatMap((key) =>
    VARIANT_NAMES.map((variant) => ({
      service: CASES[key].service,
      endpoint: CASES[key].endpoint(),
      operation: CASES[key].operation,
      params: CASES[key].params(name(key, variant)),
      ...VARIANTS[variant],
    })),
  );
  const readKeys = SERVICE_KEYS.filter((key) => CASES[key].read);
  const results = await runCalls([
    ...writes,
    ...readKeys.map((key) => CASES[key].read!()),
    cliRead(),
    { ...cliRead(), clock_offset_seconds: -6 * 60 },
  ]);
  SERVICE_KEYS.forEach((key, s) => {
    outcomes[key] = Object.fromEntries(
      VARIANT_NAMES.map((variant, v) => [variant, results[s * VARIANT_NAMES.length + v]!]),
    ) as Record<Variant, Outcome>;
  });
  const reads = results.slice(writes.length, writes.length + readKeys.length);
  for (const key of SERVICE_KEYS) afterwards[key] = await CASES[key].namesIn(reads[readKeys.indexOf(key)]);
  cli = results.slice(writes.length + readKeys.length);
}, 90_000);

describe.each(SERVICE_KEYS)('boto3 against local %s', (key) => {
  const service = CASES[key];

  it('succeeds with the right key (x-amz-content-sha256 not signed, a header added after signing)', () => {
    expect(outcomes[key].right).toMatchObject({ ok: true });
    expect(outcomes[key].right.status).toBeLessThan(300);
  });

  it('refuses a wrong secret with InvalidSignatureException and AWS message', () => {
    expect(outcomes[key].wrongSecret).toMatchObject({
      ok: false,
      status: service.status,
      code: 'InvalidSignatureException',
      message:
        'The request signature we calculated does not match the signature you provided. Check your AWS Secret Access Key and signing method. Consult the service documentation for details.',
    });
  });

  it('refuses an unknown access key with UnrecognizedClientException', () => {
    expect(outcomes[key].unknownKey).toMatchObject({
      ok: false,
      status: service.status,
      code: 'UnrecognizedClientException',
      message: 'The security token included in the request is invalid.',
    });
  });

  it('refuses a signature made 6 minutes ago as expired (5-minute window)', () => {
    expect(outcomes[key].sixMinutesOld).toMatchObject({
      ok: false,
      status: service.status,
      code: 'InvalidSignatureException',
    });
    expect(outcomes[key].sixMinutesOld.message).toMatch(
      /^Signature expired: \d{8}T\d{6}Z is now earlier than \d{8}T\d{6}Z \(\d{8}T\d{6}Z - 5 min\.\)$/,
    );
  });

  it('refuses a credential scoped to another region', () => {
    expect(outcomes[key].wrongRegion).toMatchObject({
      ok: false,
      status: service.status,
      code: 'InvalidSignatureException',
      message: "Credential should be scoped to a valid region, not 'us-west-1'.",
    });
  });

  it('refuses a signed header changed after signing', () => {
    expect(outcomes[key].tamperedHeader).toMatchObject({
      ok: false,
      status: service.status,
      code: 'InvalidSignatureException',
    });
  });

  it('changes nothing for a refused call', () => {
    expect(afterwards[key]).toContain(name(key, 'right'));
    for (const variant of VARIANT_NAMES.filter((v) => v !== 'right'))
      expect(afterwards[key]).not.toContain(name(key, variant));
  });
});

describe('botocore as the AWS CLI uses it', () => {
  it('reads back an item written with boto3, and is refused when its clock is 6 minutes behind', () => {
    const [read, stale] = cli;
    expect(read).toMatchObject({ ok: true, response: { Item: { pk: { S: name('dynamodb', 'right') } } } });
    expect(stale).toMatchObject({ ok: false, status: 400, code: 'InvalidSignatureException' });
    expect(stale!.message).toMatch(/^Signature expired: /);
  });
});

import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  AdminDeleteSoftwareTokenCommand,
  CognitoIdentityProviderClient,
  InitiateAuthCommand,
} from '@aws-sdk/client-cognito-identity-provider';
import { DynamoDBClient, GetItemCommand, PutItemCommand, QueryCommand } from '@aws-sdk/client-dynamodb';
import {
  GenerateEmbedUrlForRegisteredUserCommand,
  QuickSightClient,
  RegisterUserCommand,
} from '@aws-sdk/client-quicksight';
import { SendEmailCommand, SESv2Client } from '@aws-sdk/client-sesv2';
import { Hash } from '@smithy/hash-node';
import { SignatureV4 } from '@smithy/signature-v4';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SynthesizedDeployment } from '#local/aws/deployment.ts';
import { localDeployment } from '#local/aws/local-deployment.ts';
import { Closers } from '#local/closers.ts';
import { USER_POOL_CLIENT } from '#contracts/user-pool-client.ts';
import { startCognitoEmulator } from '#emulators/cognito/index.ts';
import { startDynamoDb } from '#local/dynamodb.ts';
import { templateValues, type LocalEndpoints } from '#local/environment.ts';
import { LOCAL_ACCOUNT_ID, LOCAL_CREDENTIALS, SUPPORT_FROM_ADDRESS, SUPPORT_TO_ADDRESS } from '#clients/local-stack.ts';
import { functionPrincipal, newCredentials, type FunctionCredentials } from '#local/functions.ts';
import { startIamGate } from '#local/iam/gate.ts';
import { LocalIam } from '#local/iam/policies.ts';
import { cognitoRules, dynamodbRules, sesRules } from '#local/iam/services.ts';
import { quicksightRules } from '#local/iam/quicksight-rules.ts';
import { startMailCapture } from '#emulators/ses/capture.ts';
import { IdentityStore } from '#emulators/ses/identities.ts';
import { startQuickSightEmulator } from '#emulators/quicksight/index.ts';

/**
 * Every local AWS endpoint checks the caller's SigV4 signature and evaluates the call against
 * the caller's identity policies from the synthesized template, as AWS does:
 * https://docs.aws.amazon.com/IAM/latest/UserGuide/reference_sigv.html and
 * https://docs.aws.amazon.com/IAM/latest/UserGuide/reference_policies_evaluation-logic.html
 */

const REGION = 'us-east-2';
const host = '127.0.0.1';
const closers = new Closers();
let dataDir: string;
let deployment: SynthesizedDeployment;
let iam: LocalIam;
const keys: Record<string, FunctionCredentials> = {};
const endpoints = { dynamodb: '', cognito: '', quicksight: '', ses: '' };
let userPoolId: string;
let delivered: () => Promise<string[]>;
const logged: string[] = [];

const client = <T>(
  Client: new (config: object) => T,
  endpoint: string,
  credentials: FunctionCredentials = LOCAL_CREDENTIALS,
): T => new Client({ endpoint, region: REGION, credentials, maxAttempts: 1 });

beforeAll(async () => {
  dataDir = await mkdtemp(join(tmpdir(), 'iam-gate-'));
  deployment = await localDeployment();
  iam = new LocalIam(LOCAL_ACCOUNT_ID);
  iam.add({
    name: 'administrator',
    arn: `arn:aws:iam::${LOCAL_ACCOUNT_ID}:user/local-administrator`,
    ...LOCAL_CREDENTIALS,
  });
  const gate = async (rules: Parameters<typeof startIamGate>[0]['rules'], upstream: string) => {
    const started = await startIamGate({ rules, iam, upstream, host, port: 0, log: (line) => logged.push(line) });
    closers.add(() => started.close());
    return started.url;
  };

  const dynamodb = await startDynamoDb({ host, port: 0, dataDir, region: REGION, credentials: LOCAL_CREDENTIALS });
  closers.add(() => dynamodb.close());
  endpoints.dynamodb = await gate(dynamodbRules, dynamodb.endpoint);

  const cognito = await startCognitoEmulator({
    port: 0,
    dataDir: join(dataDir, 'cognito'),
    region: REGION,
    client: USER_POOL_CLIENT,
    sendEmail: async () => undefined,
  });
  closers.add(() => cognito.close());
  userPoolId = cognito.userPoolId;
  endpoints.cognito = await gate(cognitoRules, cognito.url);

  const quicksight = await startQuickSightEmulator({
    port: 0,
    dataDir: join(dataDir, 'quicksight'),
    accountId: LOCAL_ACCOUNT_ID,
    region: REGION,
  });
  closers.add(() => quicksight.close());
  endpoints.quicksight = await gate(quicksightRules, quicksight.url);

  const verified = [SUPPORT_FROM_ADDRESS, SUPPORT_TO_ADDRESS];
  const identities = new IdentityStore();
  identities.verify(verified);
  const mail = await startMailCapture({ host, port: 0, apiPort: 0, dataDir, verifiedIdentities: verified });
  closers.add(() => mail.close());
  endpoints.ses = await gate(
    sesRules({ sandbox: true, identityOf: (address) => identities.identityCovering(address) ?? address }),
    mail.sesEndpoint,
  );
  delivered = async () =>
    ((await (await fetch(mail.apiUrl)).json()) as { subject: string }[]).map((message) => message.subject);

  const local: LocalEndpoints = {
    region: REGION,
    siteOrigin: 'http://localhost:4400',
    cognito: {
      endpoint: endpoints.cognito,
      userPoolId: cognito.userPoolId,
      clientId: cognito.clientId,
      jwks: cognito.jwks,
    },
    dynamodbEndpoint: endpoints.dynamodb,
    quicksightEndpoint: endpoints.quicksight,
    sesEndpoint: endpoints.ses,
  };
  const values = templateValues(deployment, local, 'placeholder');
  for (const key of ['embed', 'userAdmin', 'mfa', 'contact'] as const) {
    keys[key] = newCredentials();
    iam.add(functionPrincipal(deployment.functions[key], deployment.stackName, values, keys[key]));
  }
  // The contact function's role without the statement that grants it the State table.
  const contact = functionPrincipal(deployment.functions.contact, deployment.stackName, values, newCredentials());
  keys.contactWithoutTable = { accessKeyId: contact.accessKeyId, secretAccessKey: contact.secretAccessKey };
  iam.add({
    ...contact,
    policies: contact.policies!.map((policy) => {
      const document = policy.policy as { Statement: { Sid?: string }[] };
      return {
        ...policy,
        policy: { ...document, Statement: document.Statement.filter((statement) => statement.Sid !== 'TableState') },
      };
    }),
  });
}, 240_000);

afterAll(async () => {
  await closers.closeAll();
  await rm(dataDir, { recursive: true, force: true });
});

const stateItem = (pk: string) => ({ pk: { S: pk }, sk: { S: 'TEST' } });
const readState = (pk: string) =>
  client(DynamoDBClient, endpoints.dynamodb).send(new GetItemCommand({ TableName: 'local-State', Key: stateItem(pk) }));

/** A DynamoDB PutItem signed as SigV4 asks, with the given secret, date and body. */
async function signedPutItem(options: { secret?: string; signingDate?: Date; sentBody?: string }) {
  const { response, authorization } = await signedPutItemResponse(options);
  return {
    status: response.status,
    authorization,
    body: (await response.json()) as { __type: string; message: string },
  };
}

async function signedPutItemResponse(options: { secret?: string; signingDate?: Date; sentBody?: string }) {
  const body = JSON.stringify({ TableName: 'local-State', Item: stateItem('signed') });
  const url = new URL(endpoints.dynamodb);
  const signer = new SignatureV4({
    credentials: {
      accessKeyId: keys.contact!.accessKeyId,
      secretAccessKey: options.secret ?? keys.contact!.secretAccessKey,
    },
    region: REGION,
    service: 'dynamodb',
    sha256: Hash.bind(null, 'sha256'),
  });
  const signed = await signer.sign(
    {
      method: 'POST',
      protocol: 'http:',
      hostname: url.hostname,
      port: Number(url.port),
      path: '/',
      headers: {
        host: url.host,
        'content-type': 'application/x-amz-json-1.0',
        'x-amz-target': 'DynamoDB_20120810.PutItem',
      },
      body,
    },
    { signingDate: options.signingDate ?? new Date() },
  );
  const response = await fetch(endpoints.dynamodb, {
    method: 'POST',
    headers: signed.headers,
    body: options.sentBody ?? body,
  });
  return { response, authorization: String(signed.headers.authorization) };
}

describe('signatures (Signature Version 4, "Elements of an AWS API request signature")', () => {
  it('accepts a request signed with a function key and its secret', async () => {
    expect((await signedPutItem({})).status).toBe(200);
    expect((await readState('signed')).Item).toBeDefined();
  });

  it('refuses an unsigned request with MissingAuthenticationTokenException and changes nothing', async () => {
    const response = await fetch(endpoints.dynamodb, {
      method: 'POST',
      headers: { 'content-type': 'application/x-amz-json-1.0', 'x-amz-target': 'DynamoDB_20120810.PutItem' },
      body: JSON.stringify({ TableName: 'local-State', Item: stateItem('unsigned') }),
    });
    expect(response.status).toBe(400);
    expect(((await response.json()) as { __type: string }).__type).toBe('MissingAuthenticationTokenException');
    expect((await readState('unsigned')).Item).toBeUndefined();
  });

  it('refuses an unknown access key with UnrecognizedClientException', async () => {
    const stranger = client(DynamoDBClient, endpoints.dynamodb, {
      accessKeyId: 'ASIAUNKNOWNKEY000000',
      secretAccessKey: 'anything',
    });
    await expect(
      stranger.send(new PutItemCommand({ TableName: 'local-State', Item: stateItem('stranger') })),
    ).rejects.toMatchObject({
      name: 'UnrecognizedClientException',
    });
    expect((await readState('stranger')).Item).toBeUndefined();
  });

  it('refuses a signature made with another secret, or over another body, with InvalidSignatureException', async () => {
    const wrongSecret = await signedPutItem({ secret: 'not-the-secret' });
    expect(wrongSecret).toMatchObject({ status: 400, body: { __type: 'InvalidSignatureException' } });
    const tampered = await signedPutItem({
      sentBody: JSON.stringify({ TableName: 'local-State', Item: stateItem('tampered') }),
    });
    expect(tampered).toMatchObject({ status: 400, body: { __type: 'InvalidSignatureException' } });
    expect((await readState('tampered')).Item).toBeUndefined();
  });

  it('logs a refusal with the access key, never the secret or the signature', async () => {
    logged.length = 0;
    const refused = await signedPutItem({ secret: 'a-wrong-secret-for-the-log' });
    expect(refused.status).toBe(400);
    const signature = /Signature=([0-9a-f]{64})/.exec(refused.authorization)![1]!;
    const line = logged.find((entry) => entry.includes('InvalidSignatureException'));
    expect(line).toContain(keys.contact!.accessKeyId);
    expect(logged.join('\n')).not.toContain(signature);
    expect(logged.join('\n')).not.toContain('a-wrong-secret-for-the-log');
    expect(logged.join('\n')).not.toContain(keys.contact!.secretAccessKey);
  });

  it('answers the REST services (QuickSight, SES) in their own format: 403 with the error type header', async () => {
    const unsigned = await fetch(`${endpoints.quicksight}/accounts/${LOCAL_ACCOUNT_ID}/namespaces/default/users`);
    expect(unsigned.status).toBe(403);
    expect(unsigned.headers.get('x-amzn-errortype')).toBe('MissingAuthenticationTokenException');
    const stranger = client(SESv2Client, endpoints.ses, {
      accessKeyId: 'ASIAUNKNOWNKEY000000',
      secretAccessKey: 'anything',
    });
    await expect(
      stranger.send(
        new SendEmailCommand({
          FromEmailAddress: SUPPORT_FROM_ADDRESS,
          Destination: { ToAddresses: [SUPPORT_TO_ADDRESS] },
          Content: { Simple: { Subject: { Data: 'from a stranger' }, Body: { Text: { Data: 'Hello' } } } },
        }),
      ),
    ).rejects.toMatchObject({ name: 'UnrecognizedClientException' });
    expect(await delivered()).not.toContain('from a stranger');
  });

  // "Elements of an AWS API request signature": a request must reach AWS within 5 minutes of its time stamp.
  // https://docs.aws.amazon.com/IAM/latest/UserGuide/reference_sigv-signing-elements.html
  it('refuses a signature older than 5 minutes as expired, and accepts one 4 minutes old', async () => {
    const stale = await signedPutItem({ signingDate: new Date(Date.now() - 6 * 60_000) });
    expect(stale.status).toBe(400);
    expect(stale.body.__type).toBe('InvalidSignatureException');
    expect(stale.body.message).toMatch(
      /^Signature expired: \d{8}T\d{6}Z is now earlier than \d{8}T\d{6}Z \(\d{8}T\d{6}Z - 5 min\.\)$/,
    );
    const early = await signedPutItem({ signingDate: new Date(Date.now() + 6 * 60_000) });
    expect(early.body.message).toMatch(
      /^Signature not yet current: \d{8}T\d{6}Z is still later than \d{8}T\d{6}Z \(\d{8}T\d{6}Z \+ 5 min\.\)$/,
    );
    expect((await signedPutItem({ signingDate: new Date(Date.now() - 4 * 60_000) })).status).toBe(200);
  });

  // The credential scope names the region the endpoint is in:
  // https://docs.aws.amazon.com/IAM/latest/UserGuide/reference_sigv-create-signed-request.html
  it('refuses a credential scoped to another region and names the region', async () => {
    const elsewhere = new DynamoDBClient({
      endpoint: endpoints.dynamodb,
      region: 'eu-west-1',
      credentials: keys.contact!,
      maxAttempts: 1,
    });
    const error = await elsewhere
      .send(new PutItemCommand({ TableName: 'local-State', Item: stateItem('elsewhere') }))
      .catch((e: Error) => e);
    expect(error).toMatchObject({
      name: 'InvalidSignatureException',
      message: "Credential should be scoped to a valid region, not 'eu-west-1'.",
    });
    expect((await readState('elsewhere')).Item).toBeUndefined();
  });
});

describe("policies from the synthesized template (each function's role)", () => {
  it('denies a call once the statement that allows it is removed from the function policy', async () => {
    const put = new PutItemCommand({ TableName: 'local-State', Item: stateItem('contact-rate') });
    await expect(client(DynamoDBClient, endpoints.dynamodb, keys.contact).send(put)).resolves.toBeDefined();
    const denied = client(DynamoDBClient, endpoints.dynamodb, keys.contactWithoutTable).send(
      new PutItemCommand({ TableName: 'local-State', Item: stateItem('without-statement') }),
    );
    await expect(denied).rejects.toMatchObject({ name: 'AccessDeniedException' });
    await expect(denied).rejects.toThrow(
      /is not authorized to perform: dynamodb:PutItem on resource: arn:aws:dynamodb:us-east-2:000000000000:table\/local-State/,
    );
    expect((await readState('without-statement')).Item).toBeUndefined();
  });

  it('lets the embed function query the views index but not write views', async () => {
    const embed = client(DynamoDBClient, endpoints.dynamodb, keys.embed);
    await expect(
      embed.send(
        new QueryCommand({
          TableName: 'local-Views',
          IndexName: 'byUserEmail',
          KeyConditionExpression: 'userEmail = :email',
          ExpressionAttributeValues: { ':email': { S: 'nobody@example.com' } },
        }),
      ),
    ).resolves.toMatchObject({ Count: 0 });
    await expect(
      embed.send(new PutItemCommand({ TableName: 'local-Views', Item: { id: { S: 'planted' } } })),
    ).rejects.toMatchObject({
      name: 'AccessDeniedException',
    });
  });

  it('refuses the embed function a Query of the Views base table and of the dashboard index, which its code never reads', async () => {
    const embed = client(DynamoDBClient, endpoints.dynamodb, keys.embed);
    const query = (IndexName: string | undefined, KeyConditionExpression: string) =>
      embed.send(
        new QueryCommand({
          TableName: 'local-Views',
          IndexName,
          KeyConditionExpression,
          ExpressionAttributeValues: { ':key': { S: 'sales' } },
        }),
      );
    await expect(query(undefined, 'id = :key')).rejects.toThrow(
      /is not authorized to perform: dynamodb:Query on resource: arn:aws:dynamodb:us-east-2:000000000000:table\/local-Views because no identity-based policy allows/,
    );
    await expect(query('byDashboard', 'quicksightDashboardId = :key')).rejects.toThrow(
      /is not authorized to perform: dynamodb:Query on resource: arn:aws:dynamodb:us-east-2:000000000000:table\/local-Views\/index\/byDashboard because no identity-based policy allows/,
    );
  });

  it('lets user-admin delete a software token and refuses it to the MFA function, which is not granted it', async () => {
    // Past the gate, the pool answers for itself: the user does not exist.
    await expect(
      client(CognitoIdentityProviderClient, endpoints.cognito, keys.userAdmin).send(
        new AdminDeleteSoftwareTokenCommand({ UserPoolId: userPoolId, Username: 'nobody@example.com' }),
      ),
    ).rejects.toMatchObject({ name: 'UserNotFoundException' });
    await expect(
      client(CognitoIdentityProviderClient, endpoints.cognito, keys.mfa).send(
        new AdminDeleteSoftwareTokenCommand({ UserPoolId: userPoolId, Username: 'nobody@example.com' }),
      ),
    ).rejects.toMatchObject({ name: 'AccessDeniedException' });
  });

  it("passes Cognito's public operations without a signature, as Cognito does", async () => {
    const anonymous = new CognitoIdentityProviderClient({
      endpoint: endpoints.cognito,
      region: REGION,
      maxAttempts: 1,
      signer: { sign: async (request: unknown) => request },
    } as never);
    await expect(
      anonymous.send(
        new InitiateAuthCommand({
          AuthFlow: 'USER_SRP_AUTH',
          ClientId: 'no-such-client',
          AuthParameters: { USERNAME: 'a@example.com', SRP_A: '1' },
        }),
      ),
    ).rejects.toMatchObject({
      name: expect.not.stringMatching(/AccessDenied|MissingAuthenticationToken|UnrecognizedClient/),
    });
  });

  it('lets the embed function ask for embed URLs but not register QuickSight users', async () => {
    const embed = client(QuickSightClient, endpoints.quicksight, keys.embed);
    const userArn = `arn:aws:quicksight:${REGION}:${LOCAL_ACCOUNT_ID}:user/default/nobody@example.com`;
    await expect(
      embed.send(
        new GenerateEmbedUrlForRegisteredUserCommand({
          AwsAccountId: LOCAL_ACCOUNT_ID,
          UserArn: userArn,
          AllowedDomains: ['http://localhost:4400'],
          ExperienceConfiguration: { Dashboard: { InitialDashboardId: 'sales-performance' } },
        }),
      ),
    ).rejects.toMatchObject({ name: 'QuickSightUserNotFoundException' });
    await expect(
      embed.send(
        new RegisterUserCommand({
          AwsAccountId: LOCAL_ACCOUNT_ID,
          Namespace: 'default',
          IdentityType: 'QUICKSIGHT',
          Email: 'planted@example.com',
          UserName: 'planted@example.com',
          UserRole: 'READER',
        }),
      ),
    ).rejects.toMatchObject({ name: 'AccessDeniedException' });
  });

  it('lets the contact function send only as the support address and, in the sandbox, only to the support recipient', async () => {
    const contact = client(SESv2Client, endpoints.ses, keys.contact);
    const send = (from: string, to: string, subject: string) =>
      contact.send(
        new SendEmailCommand({
          FromEmailAddress: from,
          Destination: { ToAddresses: [to] },
          Content: { Simple: { Subject: { Data: subject }, Body: { Text: { Data: 'Hello' } } } },
        }),
      );
    await expect(send(SUPPORT_FROM_ADDRESS, SUPPORT_TO_ADDRESS, 'allowed request')).resolves.toBeDefined();
    // SES API v2 answers an IAM denial with AccessDeniedException, HTTP 403:
    // https://docs.aws.amazon.com/ses/latest/APIReference-V2/CommonErrors.html
    const denied = await send(SUPPORT_FROM_ADDRESS, 'someone@example.com', 'to a stranger').catch(
      (error: { name: string; $metadata: { httpStatusCode?: number } }) => error,
    );
    expect(denied).toMatchObject({ name: 'AccessDeniedException', $metadata: { httpStatusCode: 403 } });
    await expect(send(SUPPORT_TO_ADDRESS, SUPPORT_TO_ADDRESS, 'from another address')).rejects.toMatchObject({
      name: 'AccessDeniedException',
    });
    const subjects = await delivered();
    expect(subjects).toContain('allowed request');
    expect(subjects).not.toContain('to a stranger');
    expect(subjects).not.toContain('from another address');
  });

  it('serves pages (the JWKS) without a signature', async () => {
    const response = await fetch(`${endpoints.cognito}/${userPoolId}/.well-known/jwks.json`);
    expect(response.status).toBe(200);
    expect(((await response.json()) as { keys: unknown[] }).keys).toHaveLength(1);
  });
});

import {
  DescribeUserCommand,
  ListDashboardsCommand,
  ListUsersCommand,
  RegisterUserCommand,
} from '@aws-sdk/client-quicksight';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ACCOUNT_ID, NAMESPACE, sdkError, startTestEmulator, type TestEmulator } from './quicksight-support.ts';

const SIGNED = {
  authorization:
    'AWS4-HMAC-SHA256 Credential=AKIDLOCAL/20260202/us-east-2/quicksight/aws4_request, SignedHeaders=host;x-amz-date, Signature=00',
  'content-type': 'application/json',
};

let t: TestEmulator;
beforeEach(async () => {
  t = await startTestEmulator();
});
afterEach(async () => {
  await t.close();
});

const usersPath = `/accounts/${ACCOUNT_ID}/namespaces/${NAMESPACE}/users`;

async function call(path: string, init: RequestInit = {}) {
  const response = await fetch(`${t.emulator.url}${path}`, {
    ...init,
    headers: { ...SIGNED, ...(init.headers ?? {}) },
  });
  const text = await response.text();
  return {
    status: response.status,
    errorType: response.headers.get('x-amzn-errortype'),
    body: text ? (JSON.parse(text) as Record<string, unknown>) : {},
  };
}

describe('malformed requests', () => {
  it.each([
    ['a body that is not JSON', { method: 'POST', body: '{"UserName": ' }, 400, 'InvalidParameterValueException'],
    ['a JSON array body', { method: 'POST', body: '[1,2]' }, 400, 'InvalidParameterValueException'],
    [
      'wrongly typed fields',
      { method: 'POST', body: JSON.stringify({ IdentityType: 7, Email: [], UserRole: {} }) },
      400,
      'InvalidParameterValueException',
    ],
    [
      'a body over 1 MiB',
      { method: 'POST', body: `{"UserName":"${'x'.repeat(1_100_000)}"}` },
      413,
      'InvalidParameterValueException',
    ],
  ])('answers %s with a QuickSight error and changes nothing', async (_case, init, status, errorType) => {
    const result = await call(usersPath, init);
    expect(result.status).toBe(status);
    expect(result.errorType).toBe(errorType);
    expect(typeof result.body.Message).toBe('string');
    expect(JSON.stringify(result.body)).not.toMatch(/\s+at\s.+\.ts:\d+/);
    const listed = await t.client.send(new ListUsersCommand({ AwsAccountId: ACCOUNT_ID, Namespace: NAMESPACE }));
    expect(listed.UserList).toEqual([]);
  });

  it('answers a broken URL encoding and an unknown route with errors, not a crash', async () => {
    expect(await call(`${usersPath}/%E0%A4%A`)).toMatchObject({
      status: 400,
      errorType: 'InvalidParameterValueException',
    });
    expect(await call(`/accounts/${ACCOUNT_ID}/themes`)).toMatchObject({
      status: 404,
      errorType: 'UnknownOperationException',
    });
    expect(await call(usersPath, { method: 'PATCH' })).toMatchObject({
      status: 404,
      errorType: 'UnknownOperationException',
    });
    expect((await fetch(`${t.emulator.url}/embed/x/dashboards/y`, { method: 'POST' })).status).toBe(404);
    const listed = await t.client.send(new ListDashboardsCommand({ AwsAccountId: ACCOUNT_ID }));
    expect(listed.DashboardSummaryList?.length).toBeGreaterThanOrEqual(3);
  });

  it('refuses API calls that carry no SigV4 signature', async () => {
    const response = await fetch(`${t.emulator.url}${usersPath}`);
    expect(response.status).toBe(403);
    expect(response.headers.get('x-amzn-errortype')).toBe('MissingAuthenticationTokenException');
  });

  it('refuses an account id that is not 12 digits', async () => {
    const error = await sdkError(t.client.send(new ListUsersCommand({ AwsAccountId: 'abc', Namespace: NAMESPACE })));
    expect(error.name).toBe('InvalidParameterValueException');
  });

  it('keeps user names that look like object keys apart from built-in properties', async () => {
    await t.client.send(
      new RegisterUserCommand({
        AwsAccountId: ACCOUNT_ID,
        Namespace: NAMESPACE,
        IdentityType: 'QUICKSIGHT',
        UserName: '__proto__',
        Email: 'proto@example.com',
        UserRole: 'READER',
      }),
    );
    const listed = await t.client.send(new ListUsersCommand({ AwsAccountId: ACCOUNT_ID, Namespace: NAMESPACE }));
    expect(listed.UserList?.map((u) => u.UserName)).toEqual(['__proto__']);
    const error = await sdkError(
      t.client.send(
        new DescribeUserCommand({ AwsAccountId: ACCOUNT_ID, Namespace: NAMESPACE, UserName: 'constructor' }),
      ),
    );
    expect(error.name).toBe('ResourceNotFoundException');
  });
});

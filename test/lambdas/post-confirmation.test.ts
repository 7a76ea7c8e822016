import {
  AdminAddUserToGroupCommand,
  AdminUserGlobalSignOutCommand,
  CognitoIdentityProviderClient,
} from '@aws-sdk/client-cognito-identity-provider';
import type { PostConfirmationTriggerEvent } from 'aws-lambda';
import { mockClient } from 'aws-sdk-client-mock';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startTestDynamo, type TestDynamo } from './support/dynamo.ts';
import { tableReader } from './support/tables.ts';

const cognito = mockClient(CognitoIdentityProviderClient);
let dynamo: TestDynamo;
let tables: ReturnType<typeof tableReader>;
let handler: (event: PostConfirmationTriggerEvent) => Promise<PostConfirmationTriggerEvent>;

beforeAll(async () => {
  // The trigger needs no configuration of its own: it reads the pool from the event.
  process.env.AWS_REGION = 'us-east-2';
  process.env.POWERTOOLS_LOG_LEVEL = 'SILENT';
  process.env.AWS_ACCESS_KEY_ID = 'test';
  process.env.AWS_SECRET_ACCESS_KEY = 'test';
  dynamo = await startTestDynamo();
  process.env.DYNAMODB_ENDPOINT = dynamo.endpoint;
  tables = tableReader(dynamo.endpoint);
  ({ handler } = await import('#lambdas/post-confirmation/handler.ts'));
});
afterEach(async () => {
  cognito.reset();
  await dynamo.freshTables();
});
afterAll(async () => {
  cognito.restore();
  tables.close();
  await dynamo.close();
});

const event = (triggerSource: PostConfirmationTriggerEvent['triggerSource']): PostConfirmationTriggerEvent => ({
  version: '1',
  region: 'us-east-2',
  userPoolId: 'us-east-2_Pool0001',
  userName: 'new-user-sub',
  callerContext: { awsSdkVersion: '3', clientId: 'client' },
  triggerSource,
  request: { userAttributes: { email: 'new@example.com' } },
  response: {},
});

describe('post-confirmation trigger', () => {
  it('puts a confirmed self-sign-up into Users and returns the event', async () => {
    cognito.on(AdminAddUserToGroupCommand).resolves({});
    const input = event('PostConfirmation_ConfirmSignUp');
    expect(await handler(input)).toBe(input);
    expect(cognito.commandCalls(AdminAddUserToGroupCommand)[0]?.args[0].input).toEqual({
      UserPoolId: 'us-east-2_Pool0001',
      Username: 'new-user-sub',
      GroupName: 'Users',
    });
  });

  it("puts a confirmed self-sign-up into the portal's copy of the directory, in Users", async () => {
    cognito.on(AdminAddUserToGroupCommand).resolves({});
    await handler(event('PostConfirmation_ConfirmSignUp'));
    expect((await tables.state()).filter((item) => item.pk === 'DIRECTORY')).toEqual([
      expect.objectContaining({
        sk: 'new@example.com',
        username: 'new-user-sub',
        enabled: true,
        status: 'CONFIRMED',
        group: 'Users',
      }),
    ]);
  });

  it('ends every session of the account after a password reset by emailed code', async () => {
    cognito.on(AdminUserGlobalSignOutCommand).resolves({});
    const before = Math.floor(Date.now() / 1000);
    const input = event('PostConfirmation_ConfirmForgotPassword');
    expect(await handler(input)).toBe(input);
    expect(cognito.commandCalls(AdminUserGlobalSignOutCommand).map((call) => call.args[0].input)).toEqual([
      { UserPoolId: 'us-east-2_Pool0001', Username: 'new-user-sub' },
    ]);
    expect(cognito.commandCalls(AdminAddUserToGroupCommand)).toHaveLength(0);
    // The record that ends the refreshed tokens only the functions see.
    const record = (await tables.state()).find((item) => item.pk === 'SESSIONS_ENDED' && item.sk === 'new-user-sub');
    expect(record?.endedAt).toBeGreaterThanOrEqual(before);
    expect(record?.expiresAt).toBe((record?.endedAt as number) + 86_400);
  });

  it('fails the reset when the sign-out cannot be made, rather than leave the sessions alive unnoticed', async () => {
    cognito.on(AdminUserGlobalSignOutCommand).rejects(new Error('throttled'));
    await expect(handler(event('PostConfirmation_ConfirmForgotPassword'))).rejects.toThrow('throttled');
  });
});

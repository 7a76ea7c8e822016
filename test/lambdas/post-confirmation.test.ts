import { AdminAddUserToGroupCommand, CognitoIdentityProviderClient } from '@aws-sdk/client-cognito-identity-provider';
import type { PostConfirmationTriggerEvent } from 'aws-lambda';
import { mockClient } from 'aws-sdk-client-mock';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';

const cognito = mockClient(CognitoIdentityProviderClient);
let handler: (event: PostConfirmationTriggerEvent) => Promise<PostConfirmationTriggerEvent>;

beforeAll(async () => {
  // The trigger needs no configuration of its own: it reads the pool from the event.
  process.env.AWS_REGION = 'us-east-2';
  process.env.POWERTOOLS_LOG_LEVEL = 'SILENT';
  ({ handler } = await import('../../lambdas/post-confirmation/handler.ts'));
});
afterEach(() => cognito.reset());
afterAll(() => cognito.restore());

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

  it('leaves a confirmed password reset alone', async () => {
    const input = event('PostConfirmation_ConfirmForgotPassword');
    expect(await handler(input)).toBe(input);
    expect(cognito.calls()).toHaveLength(0);
  });
});

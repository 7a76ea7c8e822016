import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHarness, type CognitoHarness } from './support/cognito-harness.ts';

/** The wire protocol as a browser or a careless client meets it. */

let harness: CognitoHarness;
beforeAll(async () => {
  harness = await startHarness();
});
afterAll(() => harness.close());

function call(target: string | undefined, body: string, headers: Record<string, string> = {}) {
  return fetch(harness.emulator.url, {
    method: 'POST',
    headers: {
      'Content-Type': 'application/x-amz-json-1.1',
      ...(target ? { 'X-Amz-Target': `AWSCognitoIdentityProviderService.${target}` } : {}),
      ...headers,
    },
    body,
  });
}

async function expectError(response: Response, status: number, type: string, message?: string | RegExp) {
  expect(response.status).toBe(status);
  expect(response.headers.get('content-type')).toBe('application/x-amz-json-1.1');
  expect(response.headers.get('x-amzn-errortype')).toBe(type);
  const body = (await response.json()) as { __type: string; message: string };
  expect(body.__type).toBe(type);
  if (message !== undefined) expect(body.message).toMatch(message);
}

describe('AWS JSON 1.1 protocol', () => {
  it('answers browser preflights and exposes the AWS headers', async () => {
    const preflight = await fetch(harness.emulator.url, {
      method: 'OPTIONS',
      headers: {
        Origin: 'http://127.0.0.1:5999',
        'Access-Control-Request-Method': 'POST',
        'Access-Control-Request-Headers': 'content-type,x-amz-target,x-amz-user-agent,cache-control',
      },
    });
    expect(preflight.status).toBe(200);
    expect(preflight.headers.get('access-control-allow-origin')).toBe('*');
    expect(preflight.headers.get('access-control-allow-methods')).toContain('POST');
    expect(preflight.headers.get('access-control-allow-headers')).toBe(
      'content-type,x-amz-target,x-amz-user-agent,cache-control',
    );
    const answer = await call('GetUser', JSON.stringify({ AccessToken: 'abc.def.ghi' }), {
      Origin: 'http://127.0.0.1:5999',
    });
    expect(answer.headers.get('access-control-allow-origin')).toBe('*');
    expect(answer.headers.get('access-control-expose-headers')).toContain('x-amzn-RequestId');
    expect(answer.headers.get('x-amzn-requestid')).toMatch(/^[0-9a-f-]{36}$/);
    await expectError(answer, 400, 'NotAuthorizedException', 'Invalid Access Token');
  });

  it('refuses malformed bodies, unknown actions and missing or mistyped members without falling over', async () => {
    await expectError(await call('GetUser', '{"AccessToken": '), 400, 'SerializationException');
    await expectError(await call('GetUser', '[1, 2]'), 400, 'SerializationException');
    await expectError(await call('StealEverything', '{}'), 400, 'UnknownOperationException');
    await expectError(await call(undefined, '{}'), 400, 'UnknownOperationException');
    await expectError(
      await call('InitiateAuth', JSON.stringify({ AuthFlow: 'USER_SRP_AUTH' })),
      400,
      'InvalidParameterException',
      "1 validation error detected: Value null at 'clientId' failed to satisfy constraint: Member must not be null",
    );
    await expectError(
      await call('InitiateAuth', JSON.stringify({ AuthFlow: 'MAGIC', ClientId: 42 })),
      400,
      'SerializationException',
    );
    await expectError(
      await call(
        'InitiateAuth',
        JSON.stringify({ AuthFlow: 'USER_SRP_AUTH', ClientId: harness.emulator.clientId, AuthParameters: {} }),
      ),
      400,
      'InvalidParameterException',
      'Missing required parameter USERNAME',
    );
    await expectError(
      await call('InitiateAuth', JSON.stringify({ AuthFlow: 'CUSTOM_AUTH', ClientId: harness.emulator.clientId })),
      400,
      'InvalidParameterException',
      'CUSTOM_AUTH flow not enabled for this client',
    );
    await expectError(
      await call(
        'SignUp',
        JSON.stringify({ ClientId: 'unknownclient', Username: 'a@example.com', Password: 'Valid#Pass1' }),
      ),
      400,
      'ResourceNotFoundException',
      'User pool client unknownclient does not exist.',
    );
    await expectError(await call('GetUser', 'x'.repeat(1024 * 1024 + 1)), 413, 'RequestEntityTooLargeException');
    const still = await call('ListGroups', JSON.stringify({ UserPoolId: harness.emulator.userPoolId }), {
      Authorization: 'AWS4-HMAC-SHA256 Credential=local/20260101/us-east-2/cognito-idp/aws4_request',
    });
    expect(still.status).toBe(200);
  });

  it('refuses admin actions that are not signed with AWS credentials', async () => {
    const body = JSON.stringify({ UserPoolId: harness.emulator.userPoolId, Username: 'x@example.com' });
    await expectError(
      await call('AdminDeleteUser', body),
      403,
      'MissingAuthenticationTokenException',
      'Missing Authentication Token',
    );
    await expectError(
      await call('ListUsers', JSON.stringify({ UserPoolId: harness.emulator.userPoolId })),
      403,
      'MissingAuthenticationTokenException',
    );
  });

  it('refuses a PASSWORD_VERIFIER answer without a challenge of its own', async () => {
    await expectError(
      await call(
        'RespondToAuthChallenge',
        JSON.stringify({
          ClientId: harness.emulator.clientId,
          ChallengeName: 'PASSWORD_VERIFIER',
          ChallengeResponses: {
            USERNAME: 'someone',
            PASSWORD_CLAIM_SECRET_BLOCK: 'AAAA',
            PASSWORD_CLAIM_SIGNATURE: 'AAAA',
            TIMESTAMP: 'Mon Jan 5 10:00:00 UTC 2026',
          },
        }),
      ),
      400,
      'NotAuthorizedException',
      'Invalid session for the user.',
    );
  });

  it('serves the pool JWKS at the Cognito path', async () => {
    const response = await fetch(`${harness.emulator.url}/${harness.emulator.userPoolId}/.well-known/jwks.json`);
    expect(response.status).toBe(200);
    const jwks = (await response.json()) as { keys: Record<string, string>[] };
    expect(jwks).toEqual(harness.emulator.jwks);
    expect(jwks.keys).toHaveLength(1);
    expect(jwks.keys[0]).toMatchObject({ alg: 'RS256', kty: 'RSA', use: 'sig', e: 'AQAB' });
    expect(Object.keys(jwks.keys[0]!).sort()).toEqual(['alg', 'e', 'kid', 'kty', 'n', 'use']);
    expect((await fetch(`${harness.emulator.url}/us-east-2_Other1234/.well-known/jwks.json`)).status).toBe(404);
  });

  it('creates pool and client ids in the shapes Cognito uses', () => {
    expect(harness.emulator.userPoolId).toMatch(/^us-east-2_[A-Za-z0-9]{9}$/);
    expect(harness.emulator.clientId).toMatch(/^[a-z0-9]{26}$/);
  });
});

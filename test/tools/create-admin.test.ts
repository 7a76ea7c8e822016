import {
  AdminGetUserCommand,
  AdminListGroupsForUserCommand,
  CognitoIdentityProviderClient,
} from '@aws-sdk/client-cognito-identity-provider';
import { CognitoUserPool } from 'amazon-cognito-identity-js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LOCAL_CREDENTIALS } from '#clients/local-stack.ts';
import { readMail } from '../e2e/support/mail.ts';
import { authenticate, memoryStorage, userFor } from '#clients/cognito.ts';
import { createAccount, groupsOf as accountGroups } from '#tools/support/accounts.ts';
import { runTool, sharedTestStack, type TestStack } from './support/run-tool.ts';

describe('npm run create-admin', () => {
  let stack: TestStack;
  let cognito: CognitoIdentityProviderClient;

  const groupsOf = async (email: string) =>
    (
      (
        await cognito.send(
          new AdminListGroupsForUserCommand({ UserPoolId: stack.info.cognito.userPoolId, Username: email }),
        )
      ).Groups ?? []
    ).map((g) => g.GroupName);
  const lastModified = async (email: string) =>
    (
      await cognito.send(new AdminGetUserCommand({ UserPoolId: stack.info.cognito.userPoolId, Username: email }))
    ).UserLastModifiedDate?.getTime();

  beforeAll(async () => {
    stack = sharedTestStack();
    const { info } = stack;
    cognito = new CognitoIdentityProviderClient({
      endpoint: info.cognito.endpoint,
      region: info.region,
      credentials: LOCAL_CREDENTIALS,
    });
  });

  afterAll(async () => {
    cognito?.destroy();
  });

  it('creates an administrator invited by Cognito email, and changes nothing when run again', async () => {
    const email = 'First.Admin@Example.com';
    const since = new Date();
    const first = await runTool('create-admin', [email, ...stack.localArgs]);
    expect(first.code).toBe(0);
    expect(first.stdout).toContain('Created administrator first.admin@example.com');
    expect(await groupsOf('first.admin@example.com')).toEqual(['Admins']);
    const invitation = await readMail(stack.info, { to: 'first.admin@example.com', since });
    expect(invitation.text).toMatch(/password/i);

    const modified = await lastModified('first.admin@example.com');
    const again = await runTool('create-admin', ['first.admin@example.com', ...stack.localArgs]);
    expect(again.code).toBe(0);
    expect(again.stdout).toContain('is already an administrator');
    expect(again.stdout).toContain('Nothing was changed');
    expect(await lastModified('first.admin@example.com')).toBe(modified);
    expect(await groupsOf('first.admin@example.com')).toEqual(['Admins']);
  });

  it('shows a generated temporary password once instead of emailing it; signing in with it asks for a new password', async () => {
    const { code, stdout } = await runTool('create-admin', [
      'shown.admin@example.com',
      '--show-password',
      ...stack.localArgs,
    ]);
    expect(code).toBe(0);
    const password = /Temporary password \(shown once, not stored\): (\S+)/.exec(stdout)?.[1];
    expect(password).toBeDefined();
    const { info } = stack;
    const pool = new CognitoUserPool({
      UserPoolId: info.cognito.userPoolId,
      ClientId: info.cognito.clientId,
      endpoint: info.cognito.endpoint,
      Storage: memoryStorage(),
    });
    const outcome = await authenticate(userFor(pool, 'shown.admin@example.com'), 'shown.admin@example.com', password!);
    expect(outcome.step).toBe('NEW_PASSWORD_REQUIRED');
    expect(await groupsOf('shown.admin@example.com')).toEqual(['Admins']);
  });

  it('refuses an existing account that is not an administrator unless --promote is given', async () => {
    const email = stack.info.demo.user.email;
    const modified = await lastModified(email);
    const refused = await runTool('create-admin', [email, ...stack.localArgs]);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain('is not an administrator. Nothing was changed. Give --promote');
    expect(await groupsOf(email)).toEqual(['Users']);
    expect(await lastModified(email)).toBe(modified);

    const promoted = await runTool('create-admin', [email, '--promote', ...stack.localArgs]);
    expect(promoted.code).toBe(0);
    expect(promoted.stdout).toContain('is now an administrator');
    expect((await groupsOf(email)).sort()).toEqual(['Admins', 'Users']);
  });

  it('leaves no half-made account behind when a step after its creation fails', async () => {
    const pool = { cognito, userPoolId: stack.info.cognito.userPoolId };
    await expect(createAccount(pool, { email: 'half.made@example.com', group: 'NoSuchGroup' })).rejects.toMatchObject({
      name: 'ResourceNotFoundException',
    });
    expect(await accountGroups(pool, 'half.made@example.com')).toBeUndefined();
  });

  it.each([
    [[], 'Give the email address'],
    [['not-an-email'], 'Please enter a valid email address'],
    [['a@example.com', 'b@example.com'], 'Unexpected argument: b@example.com'],
    [['a@example.com', '--show-passwords'], "Unknown option '--show-passwords'"],
  ])('refuses %j with a clear message and exit code 2', async (args, message) => {
    const { code, stderr } = await runTool('create-admin', [...args, ...stack.localArgs]);
    expect(code).toBe(2);
    expect(stderr).toContain(message);
    expect(stderr).toContain('Usage: npm run create-admin');
  });
});

import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  AdminGetUserCommand,
  AdminUpdateUserAttributesCommand,
  GetUserCommand,
  ListUsersCommand,
  UpdateUserAttributesCommand,
  VerifyUserAttributeCommand,
  type AttributeType,
} from '@aws-sdk/client-cognito-identity-provider';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { localStackTemplate, type TemplateResources } from '#local/aws/local-deployment.ts';
import { userPoolGroups, userPoolSettings } from '#local/aws/synth.ts';
import { checkedVerifiedAttributes } from '#emulators/cognito/config.ts';
import { authenticate, userFor } from './support/cognito-client.ts';
import {
  createEnrolledUser,
  createUser,
  lastMailTo,
  startHarness,
  type CognitoHarness,
} from './support/cognito-harness.ts';

/**
 * Changes of email in a pool that keeps the original address until the new one is verified
 * (lib/auth.ts `keepOriginal: { email: true }`), and in one that does not. The behaviour
 * follows "Verifying updates to email addresses and phone numbers" in the Cognito developer
 * guide,
 * https://docs.aws.amazon.com/cognito/latest/developerguide/user-pool-settings-email-phone-verification.html#user-pool-settings-verifications-verify-attribute-updates
 * and the API reference: UserAttributeUpdateSettingsType ("Amazon Cognito doesn't change the
 * value of the attribute until your user responds to the verification message"),
 * UpdateUserAttributes and AdminUpdateUserAttributes ("Your user can sign in and receive
 * messages with the original attribute value until they verify the new value"; an
 * administrator's `email_verified` true applies the new value at once without a message),
 * VerifyUserAttribute ("updates the affected attribute to its pending value"). GetUser and
 * AdminGetUser have no member for a pending value: they return the attributes in force.
 */

const PASSWORD = 'Keep#Orig1nal';

const attributes = (list: AttributeType[] | undefined) =>
  Object.fromEntries((list ?? []).map(({ Name, Value }) => [Name, Value]));

/** The code of the newest verification email to an address. */
function verificationCode(harness: CognitoHarness, to: string): string {
  const message = lastMailTo(harness, to);
  expect(message.subject).toBe('Your verification code');
  return /Your verification code is (\d{6})/.exec(message.text)![1]!;
}

function adminGet(harness: CognitoHarness, username: string) {
  return harness.admin.send(new AdminGetUserCommand({ UserPoolId: harness.emulator.userPoolId, Username: username }));
}

async function listByEmail(harness: CognitoHarness, email: string) {
  const listed = await harness.admin.send(
    new ListUsersCommand({ UserPoolId: harness.emulator.userPoolId, Filter: `email = "${email}"` }),
  );
  return (listed.Users ?? []).map((user) => user.Username);
}

describe('the synthesized pool', () => {
  // The template local mode runs from (its cached synthesis), which is the default app's.
  let template: TemplateResources;
  beforeAll(async () => {
    template = await localStackTemplate();
  });
  const ofType = (type: string) => Object.entries(template.Resources).filter(([, resource]) => resource.Type === type);

  it('carries keepOriginal of lib/auth.ts into the local pool as AttributesRequireVerificationBeforeUpdate', () => {
    const only = (type: string) => ofType(type)[0]?.[1] as Parameters<typeof userPoolSettings>[0];
    const pool = only('AWS::Cognito::UserPool');
    const client = only('AWS::Cognito::UserPoolClient');
    expect(pool.Properties?.UserAttributeUpdateSettings).toEqual({
      AttributesRequireVerificationBeforeUpdate: ['email'],
    });
    expect(userPoolSettings(pool, client).attributesRequireVerificationBeforeUpdate).toEqual(['email']);
    const { UserAttributeUpdateSettings: _setting, ...withoutSetting } = pool.Properties ?? {};
    expect(
      userPoolSettings({ ...pool, Properties: withoutSetting }, client).attributesRequireVerificationBeforeUpdate,
    ).toEqual([]);
  });

  // The pool's groups are its AWS::Cognito::UserPoolGroup resources (GroupName, Precedence, Description):
  // https://docs.aws.amazon.com/AWSCloudFormation/latest/TemplateReference/aws-resource-cognito-userpoolgroup.html
  it("starts the local pool with the template's groups, by precedence", () => {
    const resources = template.Resources as Parameters<typeof userPoolGroups>[0];
    const [[poolId] = []] = ofType('AWS::Cognito::UserPool');
    const groups = userPoolGroups(resources, poolId!);
    expect(groups.map(({ name, precedence }) => ({ name, precedence }))).toEqual([
      { name: 'Admins', precedence: 0 },
      { name: 'Users', precedence: 1 },
    ]);
    expect(groups.every((group) => typeof group.description === 'string' && group.description.length > 0)).toBe(true);
    expect(userPoolGroups(resources, 'AnotherPool')).toEqual([]);
  });

  it('refuses phone numbers: the local pool sends no SMS', () => {
    expect(() => checkedVerifiedAttributes(['phone_number'])).toThrow(/phone_number/);
  });
});

describe('a pool that keeps the original email until the new one is verified', () => {
  let dataDir: string;
  let harness: CognitoHarness;
  beforeAll(async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'cognito-keep-original-'));
    harness = await startHarness({ dataDir, attributesRequireVerificationBeforeUpdate: ['email'] });
  });
  afterAll(async () => {
    await harness.close();
    await rm(dataDir, { recursive: true, force: true });
  });

  it('holds a new email back until its code is verified; until then every read and the sign-in use the original', async () => {
    const { session, username } = await createEnrolledUser(harness, 'kept@example.com', PASSWORD);
    const AccessToken = session.getAccessToken().getJwtToken();
    const answer = await harness.admin.send(
      new UpdateUserAttributesCommand({
        AccessToken,
        UserAttributes: [
          { Name: 'email', Value: 'kept.new@example.com' },
          { Name: 'name', Value: 'Kept Person' },
        ],
      }),
    );
    expect(answer.CodeDeliveryDetailsList).toEqual([
      { Destination: 'k***@e***', DeliveryMedium: 'EMAIL', AttributeName: 'email' },
    ]);
    const code = verificationCode(harness, 'kept.new@example.com');

    // The email and its verified flag stay; the other attribute applies at once.
    const original = { sub: username, email: 'kept@example.com', email_verified: 'true', name: 'Kept Person' };
    expect(attributes((await harness.admin.send(new GetUserCommand({ AccessToken }))).UserAttributes)).toEqual(
      original,
    );
    expect(attributes((await adminGet(harness, username)).UserAttributes)).toEqual(original);
    expect(await listByEmail(harness, 'kept@example.com')).toEqual([username]);
    expect(await listByEmail(harness, 'kept.new@example.com')).toEqual([]);
    await expect(adminGet(harness, 'kept.new@example.com')).rejects.toMatchObject({ name: 'UserNotFoundException' });
    expect(await authenticate(userFor(harness.pool, 'kept@example.com'), 'kept@example.com', PASSWORD)).toEqual({
      step: 'SOFTWARE_TOKEN_MFA',
    });
    await expect(
      authenticate(userFor(harness.pool, 'kept.new@example.com'), 'kept.new@example.com', PASSWORD),
    ).rejects.toMatchObject({
      code: 'NotAuthorizedException',
    });

    const verify = (Code: string) =>
      harness.admin.send(new VerifyUserAttributeCommand({ AccessToken, AttributeName: 'email', Code }));
    await expect(verify(code === '000000' ? '111111' : '000000')).rejects.toMatchObject({
      name: 'CodeMismatchException',
    });
    expect(attributes((await adminGet(harness, username)).UserAttributes).email).toBe('kept@example.com');
    await verify(code);
    const moved = { ...original, email: 'kept.new@example.com', email_verified: 'true' };
    expect(attributes((await harness.admin.send(new GetUserCommand({ AccessToken }))).UserAttributes)).toEqual(moved);
    expect(attributes((await adminGet(harness, 'kept.new@example.com')).UserAttributes)).toEqual(moved);
    await expect(adminGet(harness, 'kept@example.com')).rejects.toMatchObject({ name: 'UserNotFoundException' });
    expect(await authenticate(userFor(harness.pool, 'kept.new@example.com'), 'kept.new@example.com', PASSWORD)).toEqual(
      {
        step: 'SOFTWARE_TOKEN_MFA',
      },
    );
    // The code is spent.
    await expect(verify(code)).rejects.toMatchObject({ name: 'ExpiredCodeException' });
  });

  it('keeps the pending email and its code across a restart', async () => {
    const { session, username } = await createEnrolledUser(harness, 'restarts@example.com', PASSWORD);
    const AccessToken = session.getAccessToken().getJwtToken();
    await harness.admin.send(
      new UpdateUserAttributesCommand({
        AccessToken,
        UserAttributes: [{ Name: 'email', Value: 'restarted@example.com' }],
      }),
    );
    const code = verificationCode(harness, 'restarted@example.com');
    await harness.restart();
    expect(attributes((await adminGet(harness, username)).UserAttributes).email).toBe('restarts@example.com');
    await harness.admin.send(new VerifyUserAttributeCommand({ AccessToken, AttributeName: 'email', Code: code }));
    expect(attributes((await adminGet(harness, username)).UserAttributes)).toMatchObject({
      email: 'restarted@example.com',
      email_verified: 'true',
    });
  });

  it('lets an administrator apply a new email at once with email_verified true; without it the email waits for its code', async () => {
    const username = await createUser(harness, 'admin.target@example.com', PASSWORD);
    const update = (UserAttributes: AttributeType[]) =>
      harness.admin.send(
        new AdminUpdateUserAttributesCommand({
          UserPoolId: harness.emulator.userPoolId,
          Username: username,
          UserAttributes,
        }),
      );
    const sent = harness.mail.length;
    await update([{ Name: 'email', Value: 'admin.waits@example.com' }]);
    expect(attributes((await adminGet(harness, username)).UserAttributes)).toMatchObject({
      email: 'admin.target@example.com',
      email_verified: 'true',
    });
    expect(verificationCode(harness, 'admin.waits@example.com')).toMatch(/^\d{6}$/);
    await update([
      { Name: 'email', Value: 'admin.applied@example.com' },
      { Name: 'email_verified', Value: 'true' },
    ]);
    expect(attributes((await adminGet(harness, username)).UserAttributes)).toMatchObject({
      email: 'admin.applied@example.com',
      email_verified: 'true',
    });
    // One message, for the held address; none for the address applied at once.
    expect(harness.mail.slice(sent).map((message) => message.to)).toEqual(['admin.waits@example.com']);
  });

  it('refuses the verification when another account took the address meanwhile', async () => {
    const { session, username } = await createEnrolledUser(harness, 'slow@example.com', PASSWORD);
    const AccessToken = session.getAccessToken().getJwtToken();
    await harness.admin.send(
      new UpdateUserAttributesCommand({
        AccessToken,
        UserAttributes: [{ Name: 'email', Value: 'contested@example.com' }],
      }),
    );
    const code = verificationCode(harness, 'contested@example.com');
    await createUser(harness, 'contested@example.com', PASSWORD);
    await expect(
      harness.admin.send(new VerifyUserAttributeCommand({ AccessToken, AttributeName: 'email', Code: code })),
    ).rejects.toMatchObject({
      name: 'AliasExistsException',
    });
    expect(attributes((await adminGet(harness, username)).UserAttributes).email).toBe('slow@example.com');
  });
});

describe('a pool that applies a new email at once (no AttributesRequireVerificationBeforeUpdate)', () => {
  let harness: CognitoHarness;
  beforeAll(async () => {
    harness = await startHarness();
  });
  afterAll(() => harness.close());

  it('changes the email at once, unverified, and sends a code that verifies it', async () => {
    const { session, username } = await createEnrolledUser(harness, 'direct@example.com', PASSWORD);
    const AccessToken = session.getAccessToken().getJwtToken();
    const answer = await harness.admin.send(
      new UpdateUserAttributesCommand({
        AccessToken,
        UserAttributes: [{ Name: 'email', Value: 'direct.new@example.com' }],
      }),
    );
    expect(answer.CodeDeliveryDetailsList).toEqual([
      { Destination: 'd***@e***', DeliveryMedium: 'EMAIL', AttributeName: 'email' },
    ]);
    expect(attributes((await adminGet(harness, username)).UserAttributes)).toMatchObject({
      email: 'direct.new@example.com',
      email_verified: 'false',
    });
    const verify = (AttributeName: string) =>
      harness.admin.send(
        new VerifyUserAttributeCommand({
          AccessToken,
          AttributeName,
          Code: verificationCode(harness, 'direct.new@example.com'),
        }),
      );
    await expect(verify('name')).rejects.toMatchObject({ name: 'InvalidParameterException' });
    await verify('email');
    expect(attributes((await adminGet(harness, username)).UserAttributes)).toMatchObject({
      email: 'direct.new@example.com',
      email_verified: 'true',
    });
  });
});

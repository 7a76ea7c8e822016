import { App, Stack } from 'aws-cdk-lib';
import { Match } from 'aws-cdk-lib/assertions';
import * as cognito from 'aws-cdk-lib/aws-cognito';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  buildPortal,
  sharedPortalBuild,
  logicalIdAt,
  policyStatements,
  type PortalBuild,
} from './support/portal-build.ts';
import { invitationMessage, refuseSingleFactorPasskeys, SINGLE_FACTOR_PASSKEYS_REFUSAL } from '#lib/auth.ts';
import { cdkAuthFlows } from '#contracts/user-pool-client.ts';
import { dependencies, findCycle, type TemplateResources } from './support/template-graph.ts';

describe('identity provider (Cognito)', () => {
  let build: PortalBuild;
  beforeAll(() => {
    build = sharedPortalBuild();
  });
  afterAll(() => build.dispose());

  it('requires MFA with authenticator apps (TOTP) only', () => {
    build.template.hasResourceProperties('AWS::Cognito::UserPool', {
      MfaConfiguration: 'ON',
      EnabledMfas: ['SOFTWARE_TOKEN_MFA'],
    });
  });

  it('signs in by email, verifies email by link and recovers accounts by email only', () => {
    build.template.hasResourceProperties('AWS::Cognito::UserPool', {
      UsernameAttributes: ['email'],
      AutoVerifiedAttributes: ['email'],
      UsernameConfiguration: { CaseSensitive: false },
      VerificationMessageTemplate: Match.objectLike({
        DefaultEmailOption: 'CONFIRM_WITH_LINK',
        // The body names the portal's address, a deployment-time value, around the link placeholder.
        EmailMessageByLink: { 'Fn::Join': ['', Match.arrayWith([Match.stringLikeRegexp('\\{##.+##\\}')])] },
      }),
      AccountRecoverySetting: { RecoveryMechanisms: [{ Name: 'verified_email', Priority: 1 }] },
    });
    // The confirmation link is served by the pool's Cognito domain.
    build.template.resourceCountIs('AWS::Cognito::UserPoolDomain', 1);
  });

  it("enforces the spec's password policy", () => {
    build.template.hasResourceProperties('AWS::Cognito::UserPool', {
      Policies: {
        PasswordPolicy: Match.objectLike({
          MinimumLength: 8,
          RequireLowercase: true,
          RequireUppercase: true,
          RequireNumbers: true,
          RequireSymbols: true,
        }),
      },
    });
  });

  it('sends email through the configured SES identity and protects the pool from deletion', () => {
    build.template.hasResourceProperties('AWS::Cognito::UserPool', {
      EmailConfiguration: Match.objectLike({
        EmailSendingAccount: 'DEVELOPER',
        From: `${build.config.productName} <${build.config.sesSenderAddress}>`,
        SourceArn: Match.objectLike({
          'Fn::Join': ['', Match.arrayWith([`:identity/${build.config.sesSenderAddress}`])],
        }),
      }),
      DeletionProtection: 'ACTIVE',
    });
  });

  it('has the groups Admins (precedence 0) and Users (precedence 1)', () => {
    build.template.resourceCountIs('AWS::Cognito::UserPoolGroup', 2);
    build.template.hasResourceProperties('AWS::Cognito::UserPoolGroup', { GroupName: 'Admins', Precedence: 0 });
    build.template.hasResourceProperties('AWS::Cognito::UserPoolGroup', { GroupName: 'Users', Precedence: 1 });
  });

  it('has one SRP and choice-based (passkey) app client without secret, with user-existence errors hidden and token revocation on', () => {
    build.template.resourceCountIs('AWS::Cognito::UserPoolClient', 1);
    build.template.hasResourceProperties('AWS::Cognito::UserPoolClient', {
      GenerateSecret: false,
      // In this order, as contracts/user-pool-client.ts lists them for local mode.
      ExplicitAuthFlows: ['ALLOW_USER_SRP_AUTH', 'ALLOW_USER_AUTH', 'ALLOW_REFRESH_TOKEN_AUTH'],
      PreventUserExistenceErrors: 'ENABLED',
      EnableTokenRevocation: true,
      AccessTokenValidity: 5,
      IdTokenValidity: 60,
      RefreshTokenValidity: 30 * 24 * 60,
      TokenValidityUnits: { AccessToken: 'minutes', IdToken: 'minutes', RefreshToken: 'minutes' },
      AllowedOAuthFlowsUserPoolClient: false,
    });
  });

  it('lets passkeys that verify the user sign in as both factors, bound to the distribution, with TOTP still required', () => {
    const distribution = logicalIdAt(build.template, 'AWS::CloudFront::Distribution', '/Site/Distribution/');
    build.template.hasResourceProperties('AWS::Cognito::UserPool', {
      MfaConfiguration: 'ON',
      EnabledMfas: ['SOFTWARE_TOKEN_MFA'],
      UserPoolTier: 'ESSENTIALS',
      Policies: Match.objectLike({ SignInPolicy: { AllowedFirstAuthFactors: ['PASSWORD', 'WEB_AUTHN'] } }),
      WebAuthnFactorConfiguration: 'MULTI_FACTOR_WITH_USER_VERIFICATION',
      WebAuthnUserVerification: 'required',
      WebAuthnRelyingPartyID: { 'Fn::GetAtt': [distribution, 'DomainName'] },
    });
  });

  it('binds passkeys to the distribution without a dependency cycle (the pool already waits for it)', () => {
    expect(findCycle(dependencies(build.template.toJSON() as TemplateResources))).toBeUndefined();
  });

  it("refuses at synth, with AWS's message, a pool that requires MFA and takes passkeys as a single factor", () => {
    const resource = build.stack.auth.userPool.node.defaultChild as cognito.CfnUserPool;
    expect(build.stack.auth.userPool.node.validate()).toEqual([]);
    const configured = resource.webAuthnFactorConfiguration;
    try {
      resource.webAuthnFactorConfiguration = 'SINGLE_FACTOR';
      expect(build.stack.auth.userPool.node.validate()).toEqual([SINGLE_FACTOR_PASSKEYS_REFUSAL]);
      resource.webAuthnFactorConfiguration = undefined;
      expect(build.stack.auth.userPool.node.validate()).toEqual([SINGLE_FACTOR_PASSKEYS_REFUSAL]);
    } finally {
      resource.webAuthnFactorConfiguration = configured;
    }
  });

  it('tracks no devices by default, and tells the user-admin function so', () => {
    build.template.hasResourceProperties('AWS::Cognito::UserPool', { DeviceConfiguration: Match.absent() });
    build.template.hasResourceProperties('AWS::Lambda::Function', {
      Environment: { Variables: Match.objectLike({ REMEMBER_DEVICES: 'false' }) },
    });
  });

  it('sends invitations with the product wording, a sign-in link and the placeholders set apart in HTML', () => {
    const pool = Object.values(build.template.findResources('AWS::Cognito::UserPool'))[0] as {
      Properties: {
        AdminCreateUserConfig: { InviteMessageTemplate: { EmailSubject: unknown; EmailMessage: unknown } };
        Policies: unknown;
      };
    };
    const { EmailSubject: subject, EmailMessage: message } =
      pool.Properties.AdminCreateUserConfig.InviteMessageTemplate;
    const text = JSON.stringify(message);
    expect(JSON.stringify(subject)).toContain('account');
    expect(text).toContain('<code>{username}</code>');
    expect(text).toContain('<code>{####}</code>');
    expect(text).toContain('/login');
    expect(text).toContain('7 days');
    expect(pool.Properties.Policies).toMatchObject({ PasswordPolicy: { TemporaryPasswordValidityDays: 7 } });
  });

  it('escapes the product name in the invitation HTML', () => {
    expect(invitationMessage('A&B <Portal>', 'https://portal.example.com', 3).emailBody).toContain(
      'A&#38;B &#60;Portal&#62;',
    );
  });

  it('creates no identity pool, so there are no unauthenticated identities', () => {
    build.template.resourceCountIs('AWS::Cognito::IdentityPool', 0);
  });

  it('puts self-confirmed users into Users and signs a reset account out, with a trigger allowed only that on this pool', () => {
    const poolId = logicalIdAt(build.template, 'AWS::Cognito::UserPool', '/Auth/UserPool/');
    const triggerId = logicalIdAt(build.template, 'AWS::Lambda::Function', '/Auth/PostConfirmation/Function/');
    build.template.hasResourceProperties('AWS::Cognito::UserPool', {
      AdminCreateUserConfig: Match.objectLike({ AllowAdminCreateUserOnly: false }),
      LambdaConfig: { PostConfirmation: { 'Fn::GetAtt': [triggerId, 'Arn'] } },
    });
    build.template.hasResourceProperties('AWS::Lambda::Permission', {
      FunctionName: { 'Fn::GetAtt': [triggerId, 'Arn'] },
      Principal: 'cognito-idp.amazonaws.com',
      SourceArn: { 'Fn::GetAtt': [poolId, 'Arn'] },
    });

    const roleId = logicalIdAt(build.template, 'AWS::IAM::Role', '/Auth/PostConfirmation/Role/');
    const triggerPolicies = Object.keys(
      build.template.findResources('AWS::IAM::ManagedPolicy', { Properties: { Roles: [{ Ref: roleId }] } }),
    );
    const statements = policyStatements(build.template).filter(({ resource }) => triggerPolicies.includes(resource));
    const nonLogging = statements
      .map(({ statement }) => statement)
      .filter((statement) => statement.Sid !== 'WriteOwnLogs');
    const stateId = logicalIdAt(build.template, 'AWS::DynamoDB::Table', '/Data/State/');
    expect(nonLogging).toEqual(
      expect.arrayContaining([
        expect.objectContaining({
          Action: 'cognito-idp:AdminAddUserToGroup',
          Resource: { 'Fn::GetAtt': [poolId, 'Arn'] },
        }),
        expect.objectContaining({
          Action: 'cognito-idp:AdminUserGlobalSignOut',
          Resource: { 'Fn::GetAtt': [poolId, 'Arn'] },
        }),
        expect.objectContaining({ Action: 'dynamodb:PutItem', Resource: { 'Fn::GetAtt': [stateId, 'Arn'] } }),
      ]),
    );
    expect(nonLogging).toHaveLength(3);
  });

  it('suppresses the admin scope in refreshed tokens with a version 2 pre token generation trigger that may call nothing', () => {
    const triggerId = logicalIdAt(build.template, 'AWS::Lambda::Function', '/Auth/PreTokenGeneration/Function/');
    build.template.hasResourceProperties('AWS::Cognito::UserPool', {
      UserPoolTier: 'ESSENTIALS',
      LambdaConfig: Match.objectLike({
        PreTokenGenerationConfig: { LambdaArn: { 'Fn::GetAtt': [triggerId, 'Arn'] }, LambdaVersion: 'V2_0' },
      }),
    });
    const roleId = logicalIdAt(build.template, 'AWS::IAM::Role', '/Auth/PreTokenGeneration/Role/');
    const policies = Object.keys(
      build.template.findResources('AWS::IAM::ManagedPolicy', { Properties: { Roles: [{ Ref: roleId }] } }),
    );
    const granted = policyStatements(build.template)
      .filter(({ resource }) => policies.includes(resource))
      .map(({ statement }) => statement)
      .filter((statement) => statement.Sid !== 'WriteOwnLogs');
    expect(granted).toEqual([]);
  });
});

describe('the refusal of single-factor passkeys where MFA is required', () => {
  const pool = (mfa: cognito.Mfa, factorConfiguration?: string) => {
    const app = new App();
    const userPool = new cognito.UserPool(new Stack(app, 'Pool'), 'UserPool', {
      featurePlan: cognito.FeaturePlan.ESSENTIALS,
      mfa,
      mfaSecondFactor: { otp: true, sms: false },
      signInPolicy: { allowedFirstAuthFactors: { password: true, passkey: true } },
      passkeyRelyingPartyId: 'portal.example.com',
    });
    if (factorConfiguration)
      (userPool.node.defaultChild as cognito.CfnUserPool).webAuthnFactorConfiguration = factorConfiguration;
    refuseSingleFactorPasskeys(userPool);
    return app;
  };

  it('stops `cdk synth` before a deployment would fail', () => {
    expect(() => pool(cognito.Mfa.REQUIRED).synth()).toThrow(SINGLE_FACTOR_PASSKEYS_REFUSAL);
    expect(() => pool(cognito.Mfa.REQUIRED, 'SINGLE_FACTOR').synth()).toThrow(SINGLE_FACTOR_PASSKEYS_REFUSAL);
  });

  it('lets passkeys count as MFA, and be a single factor where MFA is optional', () => {
    expect(() => pool(cognito.Mfa.REQUIRED, 'MULTI_FACTOR_WITH_USER_VERIFICATION').synth()).not.toThrow();
    expect(() => pool(cognito.Mfa.OPTIONAL).synth()).not.toThrow();
  });
});

describe("the app client's flows as CDK synthesizes them", () => {
  it('gives the CDK props of a list in CDK order, and refuses another order', () => {
    expect(cdkAuthFlows(['ALLOW_USER_SRP_AUTH', 'ALLOW_USER_AUTH', 'ALLOW_REFRESH_TOKEN_AUTH'])).toEqual({
      userSrp: true,
      user: true,
    });
    expect(() => cdkAuthFlows(['ALLOW_USER_AUTH', 'ALLOW_USER_SRP_AUTH', 'ALLOW_REFRESH_TOKEN_AUTH'])).toThrow(
      /as CDK synthesizes them: ALLOW_USER_SRP_AUTH, ALLOW_USER_AUTH, ALLOW_REFRESH_TOKEN_AUTH/,
    );
  });
});

describe('identity provider with configuration values', () => {
  let build: PortalBuild;
  beforeAll(() => {
    build = buildPortal({
      context: {
        selfSignUp: 'false',
        accessTokenMinutes: '5',
        idTokenMinutes: 30,
        refreshTokenDays: '7',
        deletionProtection: false,
        sesSenderAddress: 'Portal@Mail.Example.org',
        sesIdentity: 'mail.example.org',
        cognitoDomainPrefix: 'acme-portal-login',
        rememberDevices: 'true',
        passkeys: 'false',
      },
    });
  });
  afterAll(() => build.dispose());

  it('keeps the password as the only first factor with passkeys off, and the client to SRP and refresh', () => {
    const [pool] = Object.values(build.template.findResources('AWS::Cognito::UserPool')) as {
      Properties: Record<string, unknown> & { Policies: Record<string, unknown> };
    }[];
    for (const property of ['WebAuthnRelyingPartyID', 'WebAuthnUserVerification', 'WebAuthnFactorConfiguration'])
      expect(pool!.Properties[property], property).toBeUndefined();
    expect(pool!.Properties.Policies.SignInPolicy).toBeUndefined();
    build.template.hasResourceProperties('AWS::Cognito::UserPoolClient', {
      ExplicitAuthFlows: ['ALLOW_USER_SRP_AUTH', 'ALLOW_REFRESH_TOKEN_AUTH'],
    });
  });

  it('lets only administrators create accounts when self sign-up is off, and keeps the triggers (a reset still ends the sessions)', () => {
    build.template.hasResourceProperties('AWS::Cognito::UserPool', {
      AdminCreateUserConfig: Match.objectLike({ AllowAdminCreateUserOnly: true }),
      LambdaConfig: Match.objectLike({
        PostConfirmation: Match.anyValue(),
        PreTokenGenerationConfig: Match.objectLike({ LambdaVersion: 'V2_0' }),
      }),
    });
  });

  it("remembers devices only on the user's prompt with rememberDevices, and lets admin resets forget them", () => {
    build.template.hasResourceProperties('AWS::Cognito::UserPool', {
      DeviceConfiguration: { ChallengeRequiredOnNewDevice: true, DeviceOnlyRememberedOnUserPrompt: true },
    });
    const userAdmin = Object.values(build.template.findResources('AWS::Lambda::Function')).find(
      (fn) =>
        (fn as { Properties: { Environment?: { Variables?: Record<string, unknown> } } }).Properties.Environment
          ?.Variables?.REMEMBER_DEVICES !== undefined,
    ) as { Properties: { Environment: { Variables: Record<string, unknown> } } } | undefined;
    expect(userAdmin?.Properties.Environment.Variables.REMEMBER_DEVICES).toBe('true');
    // The user-admin function's (admin resets) and the MFA function's (the caller's own devices).
    const grants = policyStatements(build.template).filter(({ statement }) =>
      JSON.stringify(statement.Action).includes('AdminForgetDevice'),
    );
    expect(grants).toHaveLength(2);
    for (const grant of grants) {
      expect(grant.statement.Action).toEqual(
        expect.arrayContaining(['cognito-idp:AdminListDevices', 'cognito-idp:AdminForgetDevice']),
      );
      // On the pool only, no wildcard.
      expect(JSON.stringify(grant.statement.Resource)).toMatch(/UserPool.*Arn/);
    }
  });

  it('applies the configured token lifetimes', () => {
    build.template.hasResourceProperties('AWS::Cognito::UserPoolClient', {
      AccessTokenValidity: 5,
      IdTokenValidity: 30,
      RefreshTokenValidity: 7 * 24 * 60,
    });
  });

  it('sends from a domain identity and uses the configured domain prefix', () => {
    build.template.hasResourceProperties('AWS::Cognito::UserPool', {
      EmailConfiguration: Match.objectLike({
        From: `${build.config.productName} <portal@mail.example.org>`,
        SourceArn: Match.objectLike({ 'Fn::Join': ['', Match.arrayWith([':identity/mail.example.org'])] }),
      }),
      DeletionProtection: 'INACTIVE',
    });
    build.template.hasResourceProperties('AWS::Cognito::UserPoolDomain', { Domain: 'acme-portal-login' });
  });
});

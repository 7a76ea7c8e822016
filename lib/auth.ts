import { Duration, RemovalPolicy, Stack } from 'aws-cdk-lib';
import * as cognito from 'aws-cdk-lib/aws-cognito';
import * as iam from 'aws-cdk-lib/aws-iam';
import type * as logs from 'aws-cdk-lib/aws-logs';
import { Construct } from 'constructs';
import { ADMINS_GROUP, USERS_GROUP } from '#contracts/groups.ts';
import { INVITATION_VALIDITY_DAYS } from '#contracts/user-admin.ts';
import { cdkAuthFlows, clientAuthFlows, USER_POOL_CLIENT } from '#contracts/user-pool-client.ts';
import { acknowledge, signInSettings, threatProtectionReason } from './compliance.ts';
import { PortalFunction } from './portal-function.ts';
import { PortalNames } from './resource-names.ts';
import type { PortalData } from './data.ts';

/**
 * How long an invitation's temporary password works (TemporaryPasswordValidityDays); the admin portal shows the
 * expiry from it.
 */
export const TEMPORARY_PASSWORD_VALIDITY_DAYS = INVITATION_VALIDITY_DAYS;

const escapeHtml = (value: string) => value.replace(/[&<>"']/g, (char) => `&#${char.charCodeAt(0)};`);

/**
 * The invitation email (Cognito's InviteMessageTemplate). Cognito sends it as HTML and puts
 * the user name and the generated temporary password in place of {username} and {####}:
 * each stands alone in a <code> element with nothing after it, so no punctuation of the
 * sentence can be mistaken for part of the password (which may contain . and other
 * symbols). The configured product name and address are escaped for HTML.
 */
export function invitationMessage(
  productName: string,
  portalUrl: string,
  validityDays: number,
): { emailSubject: string; emailBody: string } {
  const product = escapeHtml(productName);
  const signIn = escapeHtml(`${portalUrl}/login`);
  return {
    emailSubject: `Your ${productName} account`,
    emailBody: [
      `<p>An administrator has created a ${product} account for you.</p>`,
      `<p>User name:<br><code>{username}</code></p>`,
      `<p>Temporary password:<br><code>{####}</code></p>`,
      `<p>Sign in at <a href="${signIn}">${signIn}</a>. You will then choose your own password and set up an authenticator app.</p>`,
      `<p>The temporary password works for ${validityDays} days. After that, ask your administrator to send the invitation again.</p>`,
    ].join(''),
  };
}

export interface PortalAuthProps {
  /** Shown in the emails Cognito sends. */
  readonly productName: string;
  /** Names of the pool and its app client (see `PortalNames`). */
  readonly userPoolName: string;
  readonly userPoolClientName: string;
  /** Address of the portal, used in the emails Cognito sends. */
  readonly portalUrl: string;
  /** Verified SES address Cognito sends from. */
  readonly senderAddress: string;
  /** The SES identity that covers the sender: the address itself or its domain. */
  readonly sesIdentity: string;
  readonly accessTokenValidity: Duration;
  readonly idTokenValidity: Duration;
  readonly refreshTokenValidity: Duration;
  /** Whether visitors may create accounts at /signup. */
  readonly selfSignUp: boolean;
  /**
   * Device tracking, only remembered on user prompt: after a sign-in with a code the user
   * may have the device remembered, and sign-ins from it then skip the code.
   * @default false
   */
  readonly rememberDevices?: boolean;
  /**
   * Cognito threat protection in full-function mode (the Plus feature plan).
   * @default false (Essentials plan; mandatory TOTP MFA carries the sign-in risk)
   */
  readonly threatProtection?: boolean;
  /**
   * Minimum password length.
   * @default 8
   */
  readonly passwordMinLength?: number;
  /**
   * Passkeys (WebAuthn) as a first factor beside the password, counting as MFA when the passkey
   * verifies the user; `relyingPartyId` is the site's domain, where the browser creates and uses
   * them. Absent: password sign-in only, as without the configuration key `passkeys`.
   */
  readonly passkeys?: { readonly relyingPartyId: string };
  /** Prefix of the Cognito domain that serves the email-confirmation link. */
  readonly domainPrefix: string;
  readonly deletionProtection: boolean;
  readonly logRetention: logs.RetentionDays;
  /** The State table, where the post-confirmation trigger records a reset's end of every session. */
  readonly data: PortalData;
}

/**
 * How the pool takes passkeys when they are on: a sign-in with a passkey that verified the user
 * (WebAuthnUserVerification required) counts as multi-factor (WebAuthnFactorConfiguration).
 */
const PASSKEY_SETTINGS = {
  factorConfiguration: 'MULTI_FACTOR_WITH_USER_VERIFICATION',
  userVerification: cognito.PasskeyUserVerification.REQUIRED,
} as const;

/**
 * AWS's refusal of a pool whose passkeys are a single factor while MFA is required
 * (CreateUserPool, UpdateUserPool), word for word.
 */
export const SINGLE_FACTOR_PASSKEYS_REFUSAL =
  'Cannot set WebAuthn factor configuration to SINGLE_FACTOR if MFA is required and WebAuthn is an allowed first auth factor';

/**
 * Refuses at synth what AWS refuses at deployment: passkeys (WEB_AUTHN) as a first factor of a
 * pool that requires MFA, with the factor configuration SINGLE_FACTOR (Cognito's default). The
 * check reads the pool's CloudFormation resource, so it also sees what was set on it directly.
 */
export function refuseSingleFactorPasskeys(userPool: cognito.UserPool): void {
  const resource = userPool.node.defaultChild as cognito.CfnUserPool;
  userPool.node.addValidation({
    validate: () => {
      const stack = Stack.of(userPool);
      const policies = stack.resolve(resource.policies) as
        { signInPolicy?: { allowedFirstAuthFactors?: string[] } } | undefined;
      const firstFactors = policies?.signInPolicy?.allowedFirstAuthFactors ?? [];
      const factorConfiguration =
        (stack.resolve(resource.webAuthnFactorConfiguration) as string | undefined) ?? 'SINGLE_FACTOR';
      const mfaRequired = stack.resolve(resource.mfaConfiguration) === cognito.Mfa.REQUIRED;
      return mfaRequired && firstFactors.includes('WEB_AUTHN') && factorConfiguration === 'SINGLE_FACTOR'
        ? [SINGLE_FACTOR_PASSKEYS_REFUSAL]
        : [];
    },
  });
}

/**
 * The identity provider: a Cognito user pool with email as the sign-in name, mandatory
 * authenticator-app MFA, the spec's password policy, email-only recovery, groups Admins and
 * Users, and one app client for the SPA (SRP, no secret). With passkeys on, a passkey that
 * verifies the user (PIN or biometric) is a first factor that Cognito counts as both factors.
 * There is no identity pool: no feature needs AWS credentials in the browser, so no
 * unauthenticated identity exists.
 */
export class PortalAuth extends Construct {
  readonly userPool: cognito.UserPool;
  readonly client: cognito.UserPoolClient;
  readonly domain: cognito.UserPoolDomain;
  readonly postConfirmation: PortalFunction;
  /** Keeps the admin scope out of refreshed access tokens (lambdas/pre-token-generation). */
  readonly preTokenGeneration: PortalFunction;
  /** Whether the pool tracks devices that users may have remembered. */
  readonly rememberDevices: boolean;
  /** Whether passkeys are a first factor (and count as MFA with user verification). */
  readonly passkeys: boolean;
  /** The pool's MFA mode (`MfaConfiguration`: `ON`, every account must use an authenticator). */
  readonly mfaConfiguration: string = cognito.Mfa.REQUIRED;

  constructor(scope: Construct, id: string, props: PortalAuthProps) {
    super(scope, id);
    const senderDomain = props.senderAddress.split('@')[1];
    this.rememberDevices = props.rememberDevices ?? false;
    this.passkeys = props.passkeys !== undefined;
    const threatProtection = props.threatProtection ?? false;

    this.userPool = new cognito.UserPool(this, 'UserPool', {
      userPoolName: props.userPoolName,
      featurePlan: threatProtection ? cognito.FeaturePlan.PLUS : cognito.FeaturePlan.ESSENTIALS,
      ...(threatProtection ? { standardThreatProtectionMode: cognito.StandardThreatProtectionMode.FULL_FUNCTION } : {}),
      signInAliases: { email: true, username: false },
      signInCaseSensitive: false,
      autoVerify: { email: true },
      keepOriginal: { email: true },
      standardAttributes: { email: { required: true, mutable: true } },
      selfSignUpEnabled: props.selfSignUp,
      userVerification: {
        // The sign-up panel asks the user to click the confirmation link in the email.
        emailStyle: cognito.VerificationEmailStyle.LINK,
        emailSubject: `Confirm your ${props.productName} account`,
        emailBody: `Welcome to ${props.productName}. Confirm your email address by opening this link: {##Confirm my email##}. Then sign in at ${props.portalUrl}/login.`,
      },
      userInvitation: invitationMessage(props.productName, props.portalUrl, TEMPORARY_PASSWORD_VALIDITY_DAYS),
      passwordPolicy: {
        minLength: props.passwordMinLength ?? 8,
        requireLowercase: true,
        requireUppercase: true,
        requireDigits: true,
        requireSymbols: true,
        tempPasswordValidity: Duration.days(TEMPORARY_PASSWORD_VALIDITY_DAYS),
      },
      mfa: this.mfaConfiguration as cognito.Mfa,
      mfaSecondFactor: { otp: true, sms: false, email: false },
      ...(props.passkeys && {
        signInPolicy: { allowedFirstAuthFactors: { password: true, passkey: true } },
        passkeyRelyingPartyId: props.passkeys.relyingPartyId,
        passkeyUserVerification: PASSKEY_SETTINGS.userVerification,
      }),
      accountRecovery: cognito.AccountRecovery.EMAIL_ONLY,
      email: cognito.UserPoolEmail.withSES({
        fromEmail: props.senderAddress,
        fromName: props.productName,
        sesVerifiedDomain: props.sesIdentity === senderDomain ? senderDomain : undefined,
      }),
      ...(this.rememberDevices
        ? { deviceTracking: { challengeRequiredOnNewDevice: true, deviceOnlyRememberedOnUserPrompt: true } }
        : {}),
      deletionProtection: props.deletionProtection,
      removalPolicy: props.deletionProtection ? RemovalPolicy.RETAIN : RemovalPolicy.DESTROY,
    });
    if (props.passkeys) {
      // A passkey sign-in with user verification satisfies the required MFA; the L2 pool has no prop for it.
      (this.userPool.node.defaultChild as cognito.CfnUserPool).webAuthnFactorConfiguration =
        PASSKEY_SETTINGS.factorConfiguration;
    }
    refuseSingleFactorPasskeys(this.userPool);

    new cognito.UserPoolGroup(this, 'AdminsGroup', {
      userPool: this.userPool,
      groupName: ADMINS_GROUP,
      precedence: 0,
      description: 'Administrators: manage accounts, the dashboard catalogue and assignments',
    });
    new cognito.UserPoolGroup(this, 'UsersGroup', {
      userPool: this.userPool,
      groupName: USERS_GROUP,
      precedence: 1,
      description: 'Portal users: see the dashboards assigned to them',
    });

    this.client = this.userPool.addClient('WebClient', {
      userPoolClientName: props.userPoolClientName,
      // The same definition the local identity provider enforces (contracts/user-pool-client.ts).
      generateSecret: USER_POOL_CLIENT.generateSecret,
      // With passkeys, choice-based sign-in (USER_AUTH) beside SRP.
      authFlows: cdkAuthFlows(clientAuthFlows(this.passkeys)),
      disableOAuth: true,
      preventUserExistenceErrors: USER_POOL_CLIENT.preventUserExistenceErrors,
      enableTokenRevocation: USER_POOL_CLIENT.enableTokenRevocation,
      accessTokenValidity: props.accessTokenValidity,
      idTokenValidity: props.idTokenValidity,
      refreshTokenValidity: props.refreshTokenValidity,
      readAttributes: new cognito.ClientAttributes().withStandardAttributes({ email: true, emailVerified: true }),
      writeAttributes: new cognito.ClientAttributes().withStandardAttributes({ email: true }),
    });

    // Serves the confirmation link of the sign-up email.
    this.domain = this.userPool.addDomain('Domain', { cognitoDomain: { domainPrefix: props.domainPrefix } });

    this.postConfirmation = this.addPostConfirmationTrigger(props);
    this.preTokenGeneration = this.addPreTokenGenerationTrigger(props);

    if (!threatProtection) {
      // The reason is computed from the settings, so it never claims more than the pool does.
      acknowledge(this.userPool, {
        'AwsSolutions-COG8': threatProtectionReason(
          signInSettings({
            mfa: this.mfaConfiguration,
            rememberDevices: this.rememberDevices,
            selfSignUp: props.selfSignUp,
            passwordMinLength: props.passwordMinLength ?? 8,
            threatProtection,
            accessTokenMinutes: props.accessTokenValidity.toMinutes(),
            ...(this.passkeys && { passkeys: PASSKEY_SETTINGS }),
          }),
        ),
      });
    }
  }

  /** A small function the pool invokes synchronously: Cognito waits at most 5 seconds for it. */
  private triggerFunction(props: PortalAuthProps, id: string, name: string, description: string): PortalFunction {
    return new PortalFunction(this, id, {
      name,
      description,
      memorySize: 256,
      timeout: Duration.seconds(5),
      logRetention: props.logRetention,
      retainLogs: props.deletionProtection,
    });
  }

  /**
   * After a confirmed sign-up, puts the user into the Users group; after a password reset by
   * emailed code, ends every session of the account (a reset is what a user does who fears
   * someone else knows the password).
   */
  private addPostConfirmationTrigger(props: PortalAuthProps): PortalFunction {
    const trigger = this.triggerFunction(
      props,
      'PostConfirmation',
      'post-confirmation',
      'Adds a user who confirmed their sign-up to the Users group; signs an account out everywhere after a password reset',
    );
    this.userPool.addTrigger(cognito.UserPoolOperation.POST_CONFIRMATION, trigger.function);
    // The end of the sessions, for the refreshed tokens only the functions see (ended-sessions.ts).
    trigger.bindTable(props.data.table('State'), ['dynamodb:PutItem']);

    // The pool refers to the trigger, so the trigger's permissions cannot be part of
    // anything the function itself depends on without a dependency cycle. They live in a
    // separate managed policy attached to the function's role: it depends on the pool and
    // the role, the function on the role only. The exact pool ARN is used, no wildcard.
    new iam.ManagedPolicy(this, 'PostConfirmationGroupPolicy', {
      description:
        'Lets the post-confirmation trigger put a newly confirmed user into the Users group and sign a reset account out',
      roles: [trigger.role],
      statements: [
        new iam.PolicyStatement({
          sid: 'AddConfirmedUserToUsersGroup',
          actions: ['cognito-idp:AdminAddUserToGroup'],
          resources: [this.userPool.userPoolArn],
        }),
        new iam.PolicyStatement({
          sid: 'SignOutAfterPasswordReset',
          actions: ['cognito-idp:AdminUserGlobalSignOut'],
          resources: [this.userPool.userPoolArn],
        }),
      ],
    });
    return trigger;
  }

  /**
   * Version 2 of the pre token generation event (access token customization, Essentials feature
   * plan): tokens from a refresh lose the admin scope. The function calls nothing.
   */
  private addPreTokenGenerationTrigger(props: PortalAuthProps): PortalFunction {
    const trigger = this.triggerFunction(
      props,
      'PreTokenGeneration',
      'pre-token-generation',
      'Keeps the aws.cognito.signin.user.admin scope out of access tokens from a refresh',
    );
    this.userPool.addTrigger(
      cognito.UserPoolOperation.PRE_TOKEN_GENERATION_CONFIG,
      trigger.function,
      cognito.LambdaVersion.V2_0,
    );
    return trigger;
  }

  /** `<product>[-<environment>]-login-<account id>`: unique per account, as Cognito domain prefixes must be. */
  static defaultDomainPrefix(scope: Construct, productName: string, environment?: string): string {
    return new PortalNames({ productName, environment, region: Stack.of(scope).region }).cognitoDomainPrefix(scope);
  }
}

import { FUNCTION_URL_METHODS, type FunctionUrlName } from '#contracts/function-urls.ts';

/**
 * What local mode takes from the synthesized CDK app: for each function, the esbuild bundle
 * that deploys, its settings, its environment variables and its identity policies as they
 * stand in the template (intrinsics unresolved), and the logical IDs of the resources those
 * refer to. `synth.ts` writes it; `resolve.ts` turns it into local values.
 */
/** The five functions behind a function URL, in the order of their ports. */
export const URL_FUNCTION_KEYS = Object.keys(FUNCTION_URL_METHODS) as FunctionUrlName[];
export type UrlFunctionKey = FunctionUrlName;

/**
 * Every function of the app: the function URLs, the GraphQL resolver, the Cognito triggers, the
 * daily company-access check and the subscription deliveries (both invoked by EventBridge
 * schedules; they have no function URL).
 */
export type DeployedFunctionKey =
  UrlFunctionKey | 'graphql' | 'postConfirmation' | 'preTokenGeneration' | 'companyCheck' | 'deliveries';
export const FUNCTION_KEYS: readonly DeployedFunctionKey[] = [
  ...URL_FUNCTION_KEYS,
  'graphql',
  'postConfirmation',
  'preTokenGeneration',
  'companyCheck',
  'deliveries',
];

/** A CloudFormation value: a literal or an intrinsic function (Ref, Fn::GetAtt, Fn::Join...). */
export type TemplateValue = unknown;

export interface FunctionUrlSettings {
  readonly authType: string;
  readonly allowOrigins: readonly TemplateValue[];
  readonly allowMethods: readonly string[];
  readonly allowHeaders: readonly string[];
  readonly maxAgeSeconds: number;
}

export interface SynthesizedFunction {
  readonly logicalId: string;
  /**
   * The bundle's entry file (`cdk.out/asset.<hash>/index.mjs`): relative to the synthesis folder in deployment.json,
   * absolute once read.
   */
  readonly bundle: string;
  /** Export the runtime calls (the part after the dot of `index.handler`). */
  readonly handlerExport: string;
  readonly timeoutSeconds: number;
  readonly memoryMb: number;
  readonly environment: Readonly<Record<string, TemplateValue>>;
  readonly roleLogicalId: string;
  /** Identity policies attached to the function's role: managed, inline and the role's own. */
  readonly policies: readonly { readonly name: string; readonly document: TemplateValue }[];
  readonly url?: FunctionUrlSettings;
}

export interface UserPoolSettings {
  /** False when only administrators create accounts (AdminCreateUserConfig.AllowAdminCreateUserOnly). */
  readonly allowSelfSignUp: boolean;
  /** The pool's DeviceConfiguration; absent when it tracks no devices. */
  readonly deviceTracking?: {
    readonly challengeRequiredOnNewDevice: boolean;
    readonly deviceOnlyRememberedOnUserPrompt: boolean;
  };
  readonly accessTokenMinutes: number;
  readonly idTokenMinutes: number;
  readonly refreshTokenDays: number;
  /** Days a temporary password works (Policies.PasswordPolicy.TemporaryPasswordValidityDays). */
  readonly temporaryPasswordValidityDays: number;
  /**
   * Attributes whose new value waits until it is verified, the original staying active
   * (UserAttributeUpdateSettings.AttributesRequireVerificationBeforeUpdate); empty when unset.
   */
  readonly attributesRequireVerificationBeforeUpdate: readonly ('email' | 'phone_number')[];
  /** The invitation email (AdminCreateUserConfig.InviteMessageTemplate), intrinsics unresolved. */
  readonly invitation: { readonly emailSubject: TemplateValue; readonly emailMessage: TemplateValue };
  /** The pool's groups (its AWS::Cognito::UserPoolGroup resources), which a new local pool starts with. */
  readonly groups: readonly UserPoolGroup[];
  /**
   * The first factors a sign-in may choose (Policies.SignInPolicy.AllowedFirstAuthFactors);
   * ['PASSWORD'] when the pool sets none.
   */
  readonly allowedFirstAuthFactors: readonly FirstAuthFactor[];
  /** The pool's passkey settings; absent when it sets none and passkeys are no first factor. */
  readonly webAuthn?: WebAuthnSettings;
}

/** A first factor of choice-based sign-in (`AllowedFirstAuthFactors`). */
export type FirstAuthFactor = 'PASSWORD' | 'WEB_AUTHN' | 'EMAIL_OTP' | 'SMS_OTP';

export interface WebAuthnSettings {
  /**
   * The relying party passkeys are bound to (WebAuthnRelyingPartyID), intrinsics unresolved: the
   * site's domain, which local mode makes the local site's host (local/environment.ts).
   */
  readonly relyingPartyId: TemplateValue;
  /** WebAuthnUserVerification; Cognito's default is preferred. */
  readonly userVerification: 'required' | 'preferred';
  /** WebAuthnFactorConfiguration; Cognito's default is SINGLE_FACTOR. */
  readonly factorConfiguration: 'SINGLE_FACTOR' | 'MULTI_FACTOR_WITH_USER_VERIFICATION';
}

export interface UserPoolGroup {
  readonly name: string;
  readonly precedence?: number;
  readonly description?: string;
}

export interface SynthesizedDeployment {
  /** Hash of the sources the synthesis was made from. */
  readonly sourceHash: string;
  readonly stackName: string;
  readonly functions: Readonly<Record<DeployedFunctionKey, SynthesizedFunction>>;
  /** The user pool and app client settings the local identity provider runs with. */
  readonly userPool: UserPoolSettings;
  /** The portal's idle and absolute session limits, as the deployed config.json carries them. */
  readonly session: { readonly idleTimeoutMinutes: number; readonly absoluteSessionMinutes: number };
  /** Logical IDs of the resources whose local stand-ins have their own names and ARNs. */
  readonly resources: {
    readonly userPool: string;
    readonly userPoolClient: string;
    readonly distribution: string;
    readonly tables: Readonly<Record<string, string>>;
    /** The private bucket of the row-level-security rules file (local S3 has a bucket of that name). */
    readonly companyRulesBucket: string;
    /** The role QuickSight assumes to read the rules file (S3Parameters.RoleArn of the rules data source). */
    readonly companyRulesReadRole: string;
  };
  /** Identity policies of that role: local QuickSight reads the rules file held to them. */
  readonly companyRulesReadRolePolicies: readonly { readonly name: string; readonly document: TemplateValue }[];
}

/**
 * The portal's app client (the SPA's), defined once: the CDK app client and local mode's
 * identity provider both read it, so local mode allows exactly the sign-in flows, token
 * lifetimes and error behaviour that the deployed client has.
 */

/** `ExplicitAuthFlows` values of a Cognito app client (CreateUserPoolClient). */
export type ExplicitAuthFlow =
  | 'ALLOW_USER_SRP_AUTH'
  | 'ALLOW_REFRESH_TOKEN_AUTH'
  | 'ALLOW_USER_PASSWORD_AUTH'
  | 'ALLOW_ADMIN_USER_PASSWORD_AUTH'
  | 'ALLOW_CUSTOM_AUTH'
  | 'ALLOW_USER_AUTH';

export interface UserPoolClientDefinition {
  readonly generateSecret: boolean;
  readonly explicitAuthFlows: readonly ExplicitAuthFlow[];
  /** `PreventUserExistenceErrors`: true = ENABLED, false = LEGACY. */
  readonly preventUserExistenceErrors: boolean;
  readonly enableTokenRevocation: boolean;
  /** Refresh-token rotation: when off, refreshing returns no new refresh token. */
  readonly refreshTokenRotation: boolean;
  /** Used when the deployment configuration sets no other value. */
  readonly defaultTokenValidity: {
    readonly accessTokenMinutes: number;
    readonly idTokenMinutes: number;
    readonly refreshTokenDays: number;
  };
}

/**
 * The app client's flows with passkeys off: SRP sign-in and refresh only. This is, in this order,
 * what CDK synthesizes for `authFlows: { userSrp: true }`: it appends ALLOW_REFRESH_TOKEN_AUTH
 * unless rotation is on.
 */
const PASSWORD_AUTH_FLOWS = ['ALLOW_USER_SRP_AUTH', 'ALLOW_REFRESH_TOKEN_AUTH'] as const satisfies ExplicitAuthFlow[];

/**
 * The app client's flows with passkeys on (the default, configuration key `passkeys`): choice-based
 * sign-in (ALLOW_USER_AUTH, InitiateAuth USER_AUTH), through which a passkey signs in, beside SRP.
 * CDK synthesizes `authFlows: { userSrp: true, user: true }` in this order.
 */
const PASSKEY_AUTH_FLOWS = [
  'ALLOW_USER_SRP_AUTH',
  'ALLOW_USER_AUTH',
  'ALLOW_REFRESH_TOKEN_AUTH',
] as const satisfies ExplicitAuthFlow[];

/** The app client's `ExplicitAuthFlows` for a pool with passkeys on or off. */
export const clientAuthFlows = (passkeys: boolean): readonly ExplicitAuthFlow[] =>
  passkeys ? PASSKEY_AUTH_FLOWS : PASSWORD_AUTH_FLOWS;

/** The app client of the default configuration (passkeys on); `userPoolClient` gives it for either setting. */
export const USER_POOL_CLIENT = {
  generateSecret: false,
  explicitAuthFlows: PASSKEY_AUTH_FLOWS,
  preventUserExistenceErrors: true,
  enableTokenRevocation: true,
  refreshTokenRotation: false,
  // Access tokens last 5 minutes, Cognito's shortest: with the admin scope only in tokens from a
  // sign-in (COGNITO_ADMIN_SCOPE), no token can call Cognito's own operations later than 5
  // minutes after its sign-in, the window of the MFA function's recent sign-in check.
  defaultTokenValidity: { accessTokenMinutes: 5, idTokenMinutes: 60, refreshTokenDays: 30 },
} as const satisfies UserPoolClientDefinition;

/** The app client of a pool with passkeys on or off: `USER_POOL_CLIENT` with that setting's flows. */
export const userPoolClient = (options: { readonly passkeys: boolean }): UserPoolClientDefinition => ({
  ...USER_POOL_CLIENT,
  explicitAuthFlows: clientAuthFlows(options.passkeys),
});

/**
 * The scope that lets an access token call Cognito's token-authorized operations (GetUser,
 * AssociateSoftwareToken, VerifySoftwareToken, SetUserMFAPreference, devices, GlobalSignOut...).
 * The pre token generation trigger keeps it in tokens from a sign-in and suppresses it in
 * tokens from a refresh (lambdas/pre-token-generation/handler.ts).
 */
export const COGNITO_ADMIN_SCOPE = 'aws.cognito.signin.user.admin';

/** The `authFlows` prop of CDK's `UserPoolClient` (aws-cdk-lib/aws-cognito `AuthFlow`). */
export interface CdkAuthFlows {
  userSrp?: true;
  userPassword?: true;
  adminUserPassword?: true;
  custom?: true;
  user?: true;
}

/** The order in which CDK's `UserPoolClient` writes `ExplicitAuthFlows` (refresh last, without rotation). */
const CDK_FLOW_ORDER: readonly ExplicitAuthFlow[] = [
  'ALLOW_USER_PASSWORD_AUTH',
  'ALLOW_ADMIN_USER_PASSWORD_AUTH',
  'ALLOW_CUSTOM_AUTH',
  'ALLOW_USER_SRP_AUTH',
  'ALLOW_USER_AUTH',
  'ALLOW_REFRESH_TOKEN_AUTH',
];

/**
 * The CDK `authFlows` that synthesize exactly `flows`, in that order. CDK adds
 * ALLOW_REFRESH_TOKEN_AUTH by itself when refresh-token rotation is off, so the list must contain
 * it; a list in another order than CDK's would differ from the template, so it is refused too.
 */
export function cdkAuthFlows(flows: readonly ExplicitAuthFlow[] = USER_POOL_CLIENT.explicitAuthFlows): CdkAuthFlows {
  if (!flows.includes('ALLOW_REFRESH_TOKEN_AUTH')) {
    throw new Error('CDK always allows ALLOW_REFRESH_TOKEN_AUTH without refresh-token rotation; list it explicitly');
  }
  const synthesized = CDK_FLOW_ORDER.filter((flow) => flows.includes(flow));
  if (synthesized.join() !== flows.join()) {
    throw new Error(`List the auth flows as CDK synthesizes them: ${synthesized.join(', ')} (got ${flows.join(', ')})`);
  }
  const props: CdkAuthFlows = {};
  if (flows.includes('ALLOW_USER_SRP_AUTH')) props.userSrp = true;
  if (flows.includes('ALLOW_USER_PASSWORD_AUTH')) props.userPassword = true;
  if (flows.includes('ALLOW_ADMIN_USER_PASSWORD_AUTH')) props.adminUserPassword = true;
  if (flows.includes('ALLOW_CUSTOM_AUTH')) props.custom = true;
  if (flows.includes('ALLOW_USER_AUTH')) props.user = true;
  return props;
}

/** The `PreventUserExistenceErrors` value Cognito and CloudFormation take. */
export const preventUserExistenceErrorsSetting = (definition: UserPoolClientDefinition = USER_POOL_CLIENT) =>
  definition.preventUserExistenceErrors ? ('ENABLED' as const) : ('LEGACY' as const);

import { Stack, type CfnResource } from 'aws-cdk-lib';
import { CfnUserPool } from 'aws-cdk-lib/aws-cognito';
import { NagMessageLevel, NagPack, NagRuleCompliance, type NagPackProps } from 'cdk-nag';
import type { IConstruct } from 'constructs';
import { recording, type NagResultLog } from './nag-results.ts';
import { passkeySettingsOf, passkeysCountAsMfa } from './sign-in-claims.ts';

/**
 * The portal's own rules, beside cdk-nag's packs: what the product promises about its sign-in
 * that no published pack checks. Each result is recorded in the evidence pack like theirs, and a
 * rule of level ERROR that fails stops synthesis.
 */

/** Name of the pack: its rules are `Portal-<rule>`. */
const PORTAL_PACK = 'Portal';

/**
 * Passkeys may be a first factor only where a passkey sign-in counts as MFA with user
 * verification (WebAuthnFactorConfiguration MULTI_FACTOR_WITH_USER_VERIFICATION, WebAuthnUserVerification
 * required). A pool without passkeys among its first factors complies.
 */
export const CognitoPasskeyMfa = Object.defineProperty(
  (node: CfnResource): NagRuleCompliance => {
    if (!(node instanceof CfnUserPool)) return NagRuleCompliance.NOT_APPLICABLE;
    const stack = Stack.of(node);
    const policies = stack.resolve(node.policies) as
      { signInPolicy?: { allowedFirstAuthFactors?: unknown } } | undefined;
    const firstFactors = policies?.signInPolicy?.allowedFirstAuthFactors;
    // The rule reads the resource as the template holds it, with the evidence pack's reading of it.
    const passkeys = passkeySettingsOf({
      Type: 'AWS::Cognito::UserPool',
      Properties: {
        ...(firstFactors !== undefined && { Policies: { SignInPolicy: { AllowedFirstAuthFactors: firstFactors } } }),
        WebAuthnFactorConfiguration: stack.resolve(node.webAuthnFactorConfiguration) as unknown,
        WebAuthnUserVerification: stack.resolve(node.webAuthnUserVerification) as unknown,
      },
    });
    return passkeys === undefined || passkeysCountAsMfa(passkeys)
      ? NagRuleCompliance.COMPLIANT
      : NagRuleCompliance.NON_COMPLIANT;
  },
  'name',
  { value: 'CognitoPasskeyMfa' },
);

export class PortalChecks extends NagPack {
  readonly name = PORTAL_PACK;

  constructor(scope?: IConstruct, props?: NagPackProps) {
    super(scope, props);
    this.packName = PORTAL_PACK;
  }

  protected checkResource(node: CfnResource): void {
    this.applyRule({
      info: 'The Cognito user pool allows passkeys as a first factor without counting them as MFA with user verification. - (Control IDs: IA-2(1), IA-2(2))',
      explanation:
        'A passkey sign-in skips the TOTP step. It keeps two factors only when the passkey verifies the user (a PIN or biometric besides the device) and the pool counts it as multi-factor: WebAuthnFactorConfiguration MULTI_FACTOR_WITH_USER_VERIFICATION with WebAuthnUserVerification required. Otherwise an unlocked device with a passkey would be enough to sign in.',
      level: NagMessageLevel.ERROR,
      rule: CognitoPasskeyMfa,
      node,
    });
  }
}

export class RecordingPortalChecks extends recording(PortalChecks) {
  constructor(
    readonly log: NagResultLog,
    scope?: IConstruct,
    props?: NagPackProps,
  ) {
    super(scope, props);
  }
}

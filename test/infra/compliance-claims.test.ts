import { App, Stack } from 'aws-cdk-lib';
import { CfnUserPool } from 'aws-cdk-lib/aws-cognito';
import { NagRuleCompliance } from 'cdk-nag';
import { describe, expect, it } from 'vitest';
import { CognitoPasskeyMfa, PortalChecks } from '#compliance/portal-checks.ts';
import {
  passkeyStatement,
  signInSettingsOf,
  signInStatements,
  threatProtectionReason,
  type SignInSettings,
} from '#compliance/sign-in-claims.ts';
import { ConfigError, loadConfig } from '#lib/config.ts';

const BASE: SignInSettings = {
  mfa: 'ON',
  rememberDevices: false,
  selfSignUp: true,
  passwordMinLength: 8,
  threatProtection: false,
};

describe('sign-in statements computed from the settings', () => {
  it('says a remembered device skips the code only when devices are remembered', () => {
    const [withoutDevices] = signInStatements(BASE);
    const [withDevices] = signInStatements({ ...BASE, rememberDevices: true });
    expect(withoutDevices).toMatch(/Every sign-in asks for the code/);
    expect(withoutDevices).not.toMatch(/remembered device need/);
    expect(withDevices).toMatch(/sign-ins from a remembered device need the password only/);
    expect(threatProtectionReason(BASE)).toMatch(/every sign-in of every account must pass/);
    expect(threatProtectionReason({ ...BASE, rememberDevices: true })).toMatch(
      /except at sign-ins from a device the user chose to remember/,
    );
  });

  it('follows self sign-up, the password length and threat protection', () => {
    const text = (s: SignInSettings) => signInStatements(s).join(' ');
    expect(text(BASE)).toMatch(/Self sign-up is on/);
    expect(text({ ...BASE, selfSignUp: false })).toMatch(/Self sign-up is off/);
    expect(text(BASE)).toMatch(/at least 8 characters/);
    expect(text({ ...BASE, passwordMinLength: 14 })).toMatch(/at least 14 characters/);
    expect(text(BASE)).toMatch(/threat protection is off/);
    expect(text({ ...BASE, threatProtection: true })).toMatch(/threat protection is on in full-function mode/);
  });

  it('reads each setting back from a user pool resource', () => {
    const pool = (properties: Record<string, unknown>) =>
      signInSettingsOf({ Type: 'AWS::Cognito::UserPool', Properties: properties });
    const plain = {
      MfaConfiguration: 'ON',
      Policies: { PasswordPolicy: { MinimumLength: 8 } },
      AdminCreateUserConfig: { AllowAdminCreateUserOnly: false },
    };
    expect(pool(plain)).toEqual(BASE);
    expect(
      pool({
        ...plain,
        DeviceConfiguration: { ChallengeRequiredOnNewDevice: true, DeviceOnlyRememberedOnUserPrompt: true },
      }).rememberDevices,
    ).toBe(true);
    expect(
      pool({
        ...plain,
        Policies: { PasswordPolicy: { MinimumLength: 14 } },
        AdminCreateUserConfig: { AllowAdminCreateUserOnly: true },
        UserPoolAddOns: { AdvancedSecurityMode: 'ENFORCED' },
      }),
    ).toEqual({ ...BASE, passwordMinLength: 14, selfSignUp: false, threatProtection: true });
  });
});

describe('passkeys in the sign-in statements', () => {
  const MFA_PASSKEYS = { factorConfiguration: 'MULTI_FACTOR_WITH_USER_VERIFICATION', userVerification: 'required' };

  it('says a passkey sign-in counts as both factors only when the pool counts it so', () => {
    expect(passkeyStatement(BASE)).toMatch(/^Passkeys are off/);
    const withPasskeys = { ...BASE, passkeys: MFA_PASSKEYS };
    expect(passkeyStatement(withPasskeys)).toMatch(
      /The passkey must verify the user .* counts such a sign-in as multi-factor/,
    );
    expect(signInStatements(withPasskeys)[0]).toMatch(/Every sign-in with the password asks for the code/);
    expect(threatProtectionReason(withPasskeys)).toMatch(
      /must pass a time-based one-time password \(TOTP\) second factor, or use a passkey that verifies the user/,
    );
    const singleFactor = { ...BASE, passkeys: { factorConfiguration: 'SINGLE_FACTOR', userVerification: 'preferred' } };
    expect(passkeyStatement(singleFactor)).toMatch(/does not count as MFA .*needs no second factor/);
    expect(threatProtectionReason(singleFactor)).toMatch(/unless it uses a passkey \(a single factor in this pool/);
  });

  it("reads the passkey settings back from a user pool resource, with Cognito's defaults", () => {
    const pool = (properties: Record<string, unknown>) =>
      signInSettingsOf({ Type: 'AWS::Cognito::UserPool', Properties: { MfaConfiguration: 'ON', ...properties } });
    const firstFactors = { Policies: { SignInPolicy: { AllowedFirstAuthFactors: ['PASSWORD', 'WEB_AUTHN'] } } };
    expect(pool({}).passkeys).toBeUndefined();
    expect(pool({ WebAuthnUserVerification: 'required' }).passkeys).toBeUndefined();
    expect(pool(firstFactors).passkeys).toEqual({
      factorConfiguration: 'SINGLE_FACTOR',
      userVerification: 'preferred',
    });
    expect(
      pool({
        ...firstFactors,
        WebAuthnFactorConfiguration: 'MULTI_FACTOR_WITH_USER_VERIFICATION',
        WebAuthnUserVerification: 'required',
      }).passkeys,
    ).toEqual(MFA_PASSKEYS);
  });
});

describe("the portal pack's rule: passkeys are a first factor only as MFA with user verification", () => {
  const pool = (settings: { firstFactors?: string[]; factorConfiguration?: string; userVerification?: string }) => {
    const app = new App();
    const resource = new CfnUserPool(new Stack(app, 'Pool'), 'UserPool', {
      mfaConfiguration: 'ON',
      enabledMfas: ['SOFTWARE_TOKEN_MFA'],
      ...(settings.firstFactors && { policies: { signInPolicy: { allowedFirstAuthFactors: settings.firstFactors } } }),
      webAuthnFactorConfiguration: settings.factorConfiguration,
      webAuthnUserVerification: settings.userVerification,
    });
    return { app, resource };
  };
  const passkeys = ['PASSWORD', 'WEB_AUTHN'];

  it('passes a pool without passkeys and one whose passkeys count as MFA with user verification required', () => {
    expect(CognitoPasskeyMfa(pool({}).resource)).toBe(NagRuleCompliance.COMPLIANT);
    expect(CognitoPasskeyMfa(pool({ firstFactors: ['PASSWORD'] }).resource)).toBe(NagRuleCompliance.COMPLIANT);
    const mfa = pool({
      firstFactors: passkeys,
      factorConfiguration: 'MULTI_FACTOR_WITH_USER_VERIFICATION',
      userVerification: 'required',
    });
    expect(CognitoPasskeyMfa(mfa.resource)).toBe(NagRuleCompliance.COMPLIANT);
    expect(new PortalChecks().validateScope(mfa.app).violations).toEqual([]);
  });

  it('fails passkeys as a single factor, or without required user verification, as an error that stops synth', () => {
    for (const settings of [
      { firstFactors: passkeys },
      { firstFactors: passkeys, factorConfiguration: 'SINGLE_FACTOR', userVerification: 'required' },
      {
        firstFactors: passkeys,
        factorConfiguration: 'MULTI_FACTOR_WITH_USER_VERIFICATION',
        userVerification: 'preferred',
      },
    ]) {
      const { app, resource } = pool(settings);
      expect(CognitoPasskeyMfa(resource), JSON.stringify(settings)).toBe(NagRuleCompliance.NON_COMPLIANT);
      expect(new PortalChecks().validateScope(app).violations).toEqual([
        expect.objectContaining({ ruleName: 'Portal-CognitoPasskeyMfa', severity: 'error' }),
      ]);
    }
  });
});

describe('the stricter sign-in settings in the configuration', () => {
  const load = (context: Record<string, unknown>) => loadConfig((key) => context[key]);

  it('defaults to the spec: 8-character passwords, self sign-up on, threat protection off', () => {
    expect(load({})).toMatchObject({ passwordMinLength: 8, selfSignUp: true, threatProtection: false });
    expect(load({ passwordMinLength: '14', selfSignUp: 'false', threatProtection: 'true' })).toMatchObject({
      passwordMinLength: 14,
      selfSignUp: false,
      threatProtection: true,
    });
  });

  it('refuses a password length outside 8 to 99 and a threatProtection that is not a flag, naming the key', () => {
    expect(() => load({ passwordMinLength: 6 })).toThrow(ConfigError);
    expect(() => load({ passwordMinLength: 6 })).toThrow(/passwordMinLength: must be at least 8/);
    expect(() => load({ passwordMinLength: 100 })).toThrow(/passwordMinLength: must be at most 99/);
    expect(() => load({ passwordMinLength: '12.5' })).toThrow(/passwordMinLength: must be a whole number/);
    expect(() => load({ threatProtection: 'yes' })).toThrow(/threatProtection: must be true or false/);
  });
});

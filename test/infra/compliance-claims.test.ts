import { describe, expect, it } from 'vitest';
import {
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

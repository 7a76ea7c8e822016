import type { PostConfirmationTriggerEvent, PreTokenGenerationV2TriggerEvent } from 'aws-lambda';
import type { SigningKey } from './jwt.ts';
import type { AppClientSettings, VerifiedAttribute } from './config.ts';
import type { InvitationTemplate, SendEmail } from './mail.ts';
import type { AuthSessions } from './sessions.ts';
import type { PoolStore } from './store.ts';
import type { FirstAuthFactor, PasskeyPool } from './webauthn-config.ts';

/** Lambda triggers of the pool that local mode wires to the same handlers. */
export interface PoolTriggers {
  /** Called after a sign-up or a password reset is confirmed, as Cognito's trigger. */
  postConfirmation?: (event: PostConfirmationTriggerEvent) => Promise<unknown>;
  /** Called before tokens are issued (sign-in and refresh), with the version 2 event. */
  preTokenGeneration?: (event: PreTokenGenerationV2TriggerEvent) => Promise<unknown>;
}

/** The pool's DeviceConfiguration (device tracking); absent when devices are not tracked. */
export interface DeviceTracking {
  /** Sign-ins from a device the user has not confirmed always pass MFA. */
  readonly challengeRequiredOnNewDevice: boolean;
  /** Confirmed devices are remembered only when the user says so (UpdateDeviceStatus). */
  readonly deviceOnlyRememberedOnUserPrompt: boolean;
}

/** Everything an operation needs: the pool, its clock, keys, sessions and mail. */
export interface PoolContext {
  readonly userPoolId: string;
  readonly clientId: string;
  /** The app client's auth flows and user-existence error setting. */
  readonly client: AppClientSettings;
  readonly region: string;
  /** The part of the pool id after the underscore: SRP hashes it in. */
  readonly poolName: string;
  readonly issuer: string;
  /** Base address of this server (email links point here). */
  readonly url: string;
  readonly webUrl: string;
  readonly store: PoolStore;
  readonly signingKey: SigningKey;
  readonly sessions: AuthSessions;
  readonly lifetimes: { accessTokenSeconds: number; idTokenSeconds: number; refreshTokenMs: number };
  readonly sendEmail: SendEmail;
  readonly triggers: PoolTriggers;
  /** Told when an account's authenticator changes (CognitoEmulatorOptions.onAuthenticatorChanged). */
  readonly onAuthenticatorChanged: (email: string | undefined, secret: string | undefined) => void;
  /** Whether visitors may call SignUp (the pool's AllowAdminCreateUserOnly is false). */
  readonly allowSelfSignUp: boolean;
  readonly deviceTracking?: DeviceTracking;
  /** Attributes whose changes wait until verified (AttributesRequireVerificationBeforeUpdate). */
  readonly attributesRequireVerificationBeforeUpdate: readonly VerifiedAttribute[];
  /** How long a temporary password works (TemporaryPasswordValidityDays). */
  readonly temporaryPasswordMs: number;
  /** The pool's invitation email. */
  readonly invitation: InvitationTemplate;
  /** The pool's passkey settings (WebAuthnConfiguration) with the allowed origins; absent when it has none. */
  readonly webAuthn?: PasskeyPool;
  /** SignInPolicy.AllowedFirstAuthFactors: the first factors USER_AUTH offers. */
  readonly allowedFirstAuthFactors: readonly FirstAuthFactor[];
  now(): number;
}

/** One API action. Admin actions need a SigV4-signed request (any credentials). */
export interface Operation {
  readonly admin?: boolean;
  run(context: PoolContext, body: unknown): Promise<object> | object;
}

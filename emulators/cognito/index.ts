import { randomBytes, randomInt } from 'node:crypto';
import {
  checkedVerifiedAttributes,
  type AppClientSettings,
  type GroupDefinition,
  type VerifiedAttribute,
} from './config.ts';
import type { DeviceTracking, PoolContext, PoolTriggers } from './context.ts';
import { createCognitoServer } from './http.ts';
import { generateSigningKey, loadSigningKey } from './jwt.ts';
import { DEFAULT_INVITATION, type InvitationTemplate, type SendEmail } from './mail.ts';
import { loadPool } from './persistence.ts';
import { AuthSessions } from './sessions.ts';
import { authenticatorSecret, type GroupRecord, type PoolMeta } from './state.ts';
import { PoolStore } from './store.ts';
import { checkedPasskeyOptions, type FirstAuthFactor, type WebAuthnSettings } from './webauthn-config.ts';
import { httpUrl, listen } from '../shared/http.ts';

/**
 * A local identity provider that speaks the Cognito user-pool protocol to the unmodified
 * amazon-cognito-identity-js and @aws-sdk/client-cognito-identity-provider.
 */

export type { InvitationTemplate, OutgoingEmail } from './mail.ts';
export type { WebAuthnSettings } from './webauthn-config.ts';

export interface CognitoEmulatorOptions {
  /** @default '127.0.0.1' */
  host?: string;
  /** 0 = any free port. @default 0 */
  port?: number;
  /**
   * Address clients reach the emulator at when a front listens for it (local mode's IAM
   * gate): the links in its emails point there. @default its own address
   */
  publicUrl?: string;
  /** State is persisted here (created if missing). */
  dataDir: string;
  region: string;
  /** The pool's app client: its auth flows, user-existence errors and default token lifetimes. */
  client: AppClientSettings;
  /** The groups a new pool starts with (a pool read from `dataDir` keeps its own). @default none */
  groups?: readonly GroupDefinition[];
  sendEmail: SendEmail;
  /** Portal address; the email-confirmation page links to `${webUrl}/login`. @default the emulator's url */
  webUrl?: string;
  /** @default the app client's default (`client.defaultTokenValidity`) */
  accessTokenMinutes?: number;
  /** @default the app client's default */
  idTokenMinutes?: number;
  /** @default the app client's default */
  refreshTokenDays?: number;
  /** Whether SignUp is allowed, as the CDK pool's selfSignUp setting. @default true (the CDK default configuration) */
  allowSelfSignUp?: boolean;
  /** The pool's device tracking, as the CDK pool's deviceTracking setting. @default not tracked */
  deviceTracking?: DeviceTracking;
  /** Days a temporary password works (TemporaryPasswordValidityDays). @default 7 */
  temporaryPasswordValidityDays?: number;
  /**
   * Attributes whose new value waits until it is verified, the original staying active
   * (UserAttributeUpdateSettings.AttributesRequireVerificationBeforeUpdate). @default none
   */
  attributesRequireVerificationBeforeUpdate?: readonly VerifiedAttribute[];
  /**
   * The invitation email (InviteMessageTemplate): {username} and {####} are replaced with
   * the user name and the temporary password. @default Cognito's default message
   */
  invitation?: InvitationTemplate;
  /** Lambda triggers, as configured on the CDK user pool. */
  triggers?: PoolTriggers;
  /**
   * Told when an account's authenticator changes (associated, verified or removed), with the
   * secret its codes now come from (`authenticatorSecret`), so a holder of a copy can keep it
   * current. @default none
   */
  onAuthenticatorChanged?: (email: string | undefined, secret: string | undefined) => void;
  /**
   * The pool's passkey settings (WebAuthnConfiguration), absent when the pool has none. The pool
   * requires MFA, so WEB_AUTHN as a first factor needs MULTI_FACTOR_WITH_USER_VERIFICATION.
   */
  webAuthn?: WebAuthnSettings;
  /** SignInPolicy.AllowedFirstAuthFactors: what USER_AUTH sign-in may start with. @default ['PASSWORD'] */
  allowedFirstAuthFactors?: readonly FirstAuthFactor[];
  /**
   * Origins WebAuthn ceremonies may come from (clientDataJSON.origin), e.g. the portal's
   * 'http://localhost:5173'; each must align with the relying party ID (its host is the ID or a
   * subdomain of it), and they are unused without `webAuthn`. @default any origin that aligns with it
   */
  webAuthnOrigins?: readonly string[];
  /** Clock in epoch milliseconds, for tests of expiry. @default Date.now */
  now?: () => number;
}

export interface CognitoEmulator {
  /** SDK endpoint (POST /), JWKS at /<poolId>/.well-known/jwks.json, email link GET /confirmUser. */
  url: string;
  /** Stable across restarts, shaped like `us-east-2_AbCdEf123`. */
  userPoolId: string;
  /** Stable across restarts. */
  clientId: string;
  /** `https://cognito-idp.<region>.amazonaws.com/<poolId>` */
  issuer: string;
  jwks: { keys: object[] };
  close(): Promise<void>;
}

const ALPHANUMERIC = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
const randomString = (length: number, alphabet: string) =>
  Array.from({ length }, () => alphabet.charAt(randomInt(alphabet.length))).join('');

function newPool(
  region: string,
  groups: readonly GroupDefinition[],
  now: number,
): { meta: PoolMeta; groups: GroupRecord[] } {
  return {
    meta: {
      userPoolId: `${region}_${randomString(9, ALPHANUMERIC)}`,
      clientId: randomString(26, 'abcdefghijklmnopqrstuvwxyz0123456789'),
      region,
      createdAt: now,
      signingKey: generateSigningKey(),
      decoySecret: randomBytes(32).toString('hex'),
    },
    groups: groups.map((group) => ({ ...group, createdAt: now, updatedAt: now })),
  };
}

function positive(name: string, value: number | undefined, fallback: number): number {
  const result = value ?? fallback;
  if (!Number.isFinite(result) || result <= 0)
    throw new Error(`${name} must be a positive number, got ${String(value)}`);
  return result;
}

/** Cognito refuses an InviteMessageTemplate whose EmailMessage lacks either placeholder. */
function checkedInvitation(template: InvitationTemplate): InvitationTemplate {
  for (const placeholder of ['{username}', '{####}']) {
    if (!template.emailMessage.includes(placeholder))
      throw new Error(`The invitation EmailMessage must contain ${placeholder}`);
  }
  return template;
}

export async function startCognitoEmulator(options: CognitoEmulatorOptions): Promise<CognitoEmulator> {
  if (!/^[a-z]{2}(-[a-z]+)+-\d$/.test(options.region)) throw new Error(`Not an AWS region: ${options.region}`);
  if (options.webUrl !== undefined && !/^https?:\/\/[^/]/.test(options.webUrl)) {
    throw new Error(`webUrl must be an http(s) address, got ${options.webUrl}`);
  }
  // Refused before anything is opened: a configuration AWS refuses never starts.
  const passkeys = checkedPasskeyOptions(options);
  const now = options.now ?? Date.now;
  const validity = options.client.defaultTokenValidity;
  const lifetimes = {
    accessTokenSeconds: positive('accessTokenMinutes', options.accessTokenMinutes, validity.accessTokenMinutes) * 60,
    idTokenSeconds: positive('idTokenMinutes', options.idTokenMinutes, validity.idTokenMinutes) * 60,
    refreshTokenMs:
      positive('refreshTokenDays', options.refreshTokenDays, validity.refreshTokenDays) * 24 * 60 * 60_000,
  };
  const store = await PoolStore.open(options.dataDir, now, () => newPool(options.region, options.groups ?? [], now()));
  const { meta } = store;
  if (meta.region !== options.region) {
    await store.close();
    throw new Error(
      `The user pool in ${options.dataDir} belongs to ${meta.region}, not ${options.region}; reset the local state to change region.`,
    );
  }
  const signingKey = loadSigningKey(meta.signingKey);
  const jwks = { keys: [signingKey.jwk] };
  let url = '';
  const context: PoolContext = {
    userPoolId: meta.userPoolId,
    clientId: meta.clientId,
    client: options.client,
    region: meta.region,
    poolName: meta.userPoolId.split('_')[1]!,
    issuer: `https://cognito-idp.${meta.region}.amazonaws.com/${meta.userPoolId}`,
    get url() {
      return options.publicUrl ?? url;
    },
    get webUrl() {
      return options.webUrl ?? options.publicUrl ?? url;
    },
    store,
    signingKey,
    sessions: new AuthSessions(now),
    lifetimes,
    sendEmail: options.sendEmail,
    triggers: options.triggers ?? {},
    onAuthenticatorChanged: options.onAuthenticatorChanged ?? (() => undefined),
    allowSelfSignUp: options.allowSelfSignUp ?? true,
    ...(options.deviceTracking ? { deviceTracking: options.deviceTracking } : {}),
    attributesRequireVerificationBeforeUpdate: checkedVerifiedAttributes(
      options.attributesRequireVerificationBeforeUpdate ?? [],
    ),
    temporaryPasswordMs:
      positive('temporaryPasswordValidityDays', options.temporaryPasswordValidityDays, 7) * 24 * 60 * 60_000,
    invitation: checkedInvitation(options.invitation ?? DEFAULT_INVITATION),
    ...(passkeys.webAuthn ? { webAuthn: passkeys.webAuthn } : {}),
    allowedFirstAuthFactors: passkeys.allowedFirstAuthFactors,
    now,
  };
  const server = createCognitoServer(context, jwks);
  const host = options.host ?? '127.0.0.1';
  let port: number;
  try {
    port = await listen(server, options.port ?? 0, host);
  } catch (error) {
    await store.close();
    throw error;
  }
  url = httpUrl(host, port);
  let closing: Promise<void> | undefined;
  return {
    url,
    userPoolId: context.userPoolId,
    clientId: context.clientId,
    issuer: context.issuer,
    jwks,
    close: () =>
      (closing ??= (async () => {
        await new Promise<void>((resolve) => {
          server.close(() => resolve());
          server.closeAllConnections();
        });
        await store.close();
      })()),
  };
}

/** Current TOTP secret of an account (for `npm run totp`); undefined if none. */
export async function readTotpSecret(dataDir: string, email: string): Promise<string | undefined> {
  const pool = await loadPool(dataDir);
  const wanted = email.trim().toLowerCase();
  const user = pool?.users.find((candidate) => candidate.attributes.email?.toLowerCase() === wanted);
  if (!user) return undefined;
  return authenticatorSecret(user.softwareToken);
}

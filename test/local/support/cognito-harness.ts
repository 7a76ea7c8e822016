import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CognitoIdentityProviderClient } from '@aws-sdk/client-cognito-identity-provider';
import type { PostConfirmationTriggerEvent, PreTokenGenerationV2TriggerEvent } from 'aws-lambda';
import { CognitoUserPool } from 'amazon-cognito-identity-js';
import { currentTotpCode } from '#clients/authenticator-code.ts';
import { authenticate, createConfirmedAccount, memoryStorage, userFor } from '#clients/cognito.ts';
import { USER_POOL_CLIENT } from '#contracts/user-pool-client.ts';
import {
  startCognitoEmulator,
  type CognitoEmulator,
  type InvitationTemplate,
  type OutgoingEmail,
} from '#emulators/cognito/index.ts';
import { completeMfaSetup, setTotpPreference } from './cognito-client.ts';

/** A running emulator in a temporary directory, with captured mail and a movable clock. */
export interface CognitoHarness {
  emulator: CognitoEmulator;
  dataDir: string;
  mail: OutgoingEmail[];
  triggerEvents: PostConfirmationTriggerEvent[];
  admin: CognitoIdentityProviderClient;
  pool: CognitoUserPool;
  /** The emulator's clock (epoch ms). */
  now(): number;
  /** Moves the emulator's clock forward. */
  advance(ms: number): void;
  /**
   * Stops the emulator's clock where it is, so that only `advance` moves it (for limits of a
   * second or so that a loaded machine's own delays would otherwise run out); `run` it again after.
   */
  freeze(): void;
  run(): void;
  /** A TOTP code for the emulator's current time. */
  totp(secret: string): string;
  restart(): Promise<void>;
  close(): Promise<void>;
}

const REGION = 'us-east-2';
export const WEB_URL = 'http://127.0.0.1:5999';
/** The portal pool's groups (lib/auth.ts), which a new pool of the harness starts with. */
const PORTAL_GROUPS = [
  { name: 'Admins', precedence: 0 },
  { name: 'Users', precedence: 1 },
];

export interface HarnessOptions {
  dataDir?: string;
  accessTokenMinutes?: number;
  failPostConfirmation?: boolean;
  allowSelfSignUp?: boolean;
  /** The pool's device tracking (off unless given). */
  deviceTracking?: { challengeRequiredOnNewDevice: boolean; deviceOnlyRememberedOnUserPrompt: boolean };
  temporaryPasswordValidityDays?: number;
  invitation?: InvitationTemplate;
  /** The pool's AttributesRequireVerificationBeforeUpdate. @default none */
  attributesRequireVerificationBeforeUpdate?: readonly ('email' | 'phone_number')[];
  /** The pool's pre token generation trigger (version 2 event). */
  preTokenGeneration?: (event: PreTokenGenerationV2TriggerEvent) => Promise<unknown>;
}

export async function startHarness(options: HarnessOptions = {}): Promise<CognitoHarness> {
  const dataDir = options.dataDir ?? (await mkdtemp(join(tmpdir(), 'cognito-test-')));
  const mail: OutgoingEmail[] = [];
  const triggerEvents: PostConfirmationTriggerEvent[] = [];
  let offset = 0;
  let frozenAt: number | undefined;
  const now = () => (frozenAt ?? Date.now()) + offset;
  const start = () =>
    startCognitoEmulator({
      dataDir,
      region: REGION,
      client: USER_POOL_CLIENT,
      groups: PORTAL_GROUPS,
      webUrl: WEB_URL,
      now,
      sendEmail: async (message) => {
        mail.push(message);
      },
      triggers: {
        postConfirmation: async (event) => {
          triggerEvents.push(event);
          if (options.failPostConfirmation) throw new Error('trigger unavailable');
        },
        ...(options.preTokenGeneration ? { preTokenGeneration: options.preTokenGeneration } : {}),
      },
      ...(options.accessTokenMinutes ? { accessTokenMinutes: options.accessTokenMinutes } : {}),
      ...(options.allowSelfSignUp !== undefined ? { allowSelfSignUp: options.allowSelfSignUp } : {}),
      ...(options.deviceTracking ? { deviceTracking: options.deviceTracking } : {}),
      ...(options.temporaryPasswordValidityDays !== undefined
        ? { temporaryPasswordValidityDays: options.temporaryPasswordValidityDays }
        : {}),
      ...(options.invitation !== undefined ? { invitation: options.invitation } : {}),
      ...(options.attributesRequireVerificationBeforeUpdate
        ? { attributesRequireVerificationBeforeUpdate: options.attributesRequireVerificationBeforeUpdate }
        : {}),
    });
  let emulator = await start();
  const harness: CognitoHarness = {
    get emulator() {
      return emulator;
    },
    dataDir,
    mail,
    triggerEvents,
    get admin() {
      return adminClient(emulator.url);
    },
    get pool() {
      return new CognitoUserPool({
        UserPoolId: emulator.userPoolId,
        ClientId: emulator.clientId,
        endpoint: emulator.url,
        Storage: memoryStorage(),
      });
    },
    now,
    advance: (ms) => {
      offset += ms;
    },
    freeze: () => {
      frozenAt ??= Date.now();
    },
    run: () => {
      if (frozenAt !== undefined) offset -= Date.now() - frozenAt;
      frozenAt = undefined;
    },
    totp: (secret) => currentTotpCode(secret, now()),
    restart: async () => {
      await emulator.close();
      emulator = await start();
    },
    close: async () => {
      await emulator.close();
      if (!options.dataDir) await rm(dataDir, { recursive: true, force: true });
    },
  };
  return harness;
}

export function adminClient(endpoint: string): CognitoIdentityProviderClient {
  return new CognitoIdentityProviderClient({
    region: REGION,
    endpoint,
    credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
    maxAttempts: 1,
  });
}

/** A confirmed account with a permanent password, created as an administrator would (clients/cognito.ts). */
export function createUser(
  harness: CognitoHarness,
  email: string,
  password: string,
  groups: readonly string[] = [],
): Promise<string> {
  return createConfirmedAccount(harness.admin, harness.emulator.userPoolId, { email, password, groups });
}

/**
 * Creates an account and enrols its authenticator through the first sign-in, as a person
 * does, then turns TOTP on as the preferred factor as the portal does right after setup;
 * the clock then moves to the next 30-second step so that a new code can be used.
 */
export async function createEnrolledUser(
  harness: CognitoHarness,
  email: string,
  password: string,
  groups: readonly string[] = [],
) {
  const username = await createUser(harness, email, password, groups);
  const user = userFor(harness.pool, email);
  const outcome = await authenticate(user, email, password);
  if (outcome.step !== 'MFA_SETUP') throw new Error(`expected MFA_SETUP, got ${outcome.step}`);
  const { secret, session } = await completeMfaSetup(user, (secretCode) => harness.totp(secretCode));
  await setTotpPreference(user, true);
  harness.advance(30_000);
  return { username, secret, session };
}

/** The newest captured email to an address. */
export function lastMailTo(harness: CognitoHarness, to: string): OutgoingEmail {
  const message = harness.mail.filter((candidate) => candidate.to === to).at(-1);
  if (!message) throw new Error(`no email to ${to}`);
  return message;
}

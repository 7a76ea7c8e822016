import { randomBytes } from 'node:crypto';
import { POOL } from './config.ts';
import { ERRORS } from './errors.ts';
import type { ServerChallenge } from './srp.ts';

/**
 * Sign-ins in progress. They live in memory only, as Cognito's last 3 minutes: a
 * restart in the middle of a sign-in means signing in again.
 */

export interface SrpState {
  /** Undefined for an account that does not exist: the challenge is a decoy. */
  username?: string;
  userIdForSrp: string;
  verifier: string;
  A: bigint;
  challenge: ServerChallenge;
}

type ChallengeName =
  'NEW_PASSWORD_REQUIRED' | 'SOFTWARE_TOKEN_MFA' | 'MFA_SETUP' | 'DEVICE_SRP_AUTH' | 'DEVICE_PASSWORD_VERIFIER';

export interface ChallengeState {
  username: string;
  challenge: ChallengeName;
  /** Epoch seconds of the password check, carried into auth_time. */
  authTime: number;
  /** MFA_SETUP progress: an authenticator was associated, then verified. */
  setup?: 'associated' | 'verified';
  failedCodes: number;
  /** The tracked device the client named with DEVICE_KEY, if any. */
  deviceKey?: string;
  /** DEVICE_PASSWORD_VERIFIER: the device SRP exchange in progress. */
  deviceSrp?: { A: bigint; challenge: ServerChallenge; secretBlock: string };
}

interface Entry<T> {
  value: T;
  expiresAt: number;
}

/**
 * USER_AUTH (choice-based sign-in) before its first factor is proven: the choice of a challenge
 * (SELECT_CHALLENGE), or a passkey assertion awaited (WEB_AUTHN) with the challenge it must sign.
 */
export interface UserAuthState {
  /** The USERNAME the client gave. */
  requested: string;
  /** The account it names; undefined for one that does not exist (the answer is a decoy). */
  username?: string;
  challenge: 'SELECT_CHALLENGE' | 'WEB_AUTHN';
  /** SELECT_CHALLENGE: the challenges offered (AvailableChallenges). */
  available?: readonly string[];
  /** WEB_AUTHN: the request options' challenge (base64url) and user verification requirement. */
  webAuthn?: { challenge: string; userVerification: 'required' | 'preferred' };
}

/** A passkey registration started (StartWebAuthnRegistration) and not yet completed. */
export interface PendingRegistration {
  /** The creation options' challenge, base64url. */
  challenge: string;
}

class ExpiringMap<T> {
  private readonly entries = new Map<string, Entry<T>>();

  constructor(
    private readonly now: () => number,
    private readonly lifetimeMs = POOL.authSessionMs,
  ) {}

  put(id: string, value: T): void {
    if (this.entries.size >= 1000) this.sweep();
    this.entries.set(id, { value, expiresAt: this.now() + this.lifetimeMs });
  }

  /** Removes and returns the entry; undefined when it is unknown or expired. */
  take(id: string): T | undefined {
    const entry = this.entries.get(id);
    this.entries.delete(id);
    return entry && entry.expiresAt > this.now() ? entry.value : undefined;
  }

  /** The entry, or Cognito's session errors when it is unknown or expired. */
  get(id: string): T {
    const entry = this.entries.get(id);
    if (!entry) throw ERRORS.invalidSession();
    if (entry.expiresAt <= this.now()) {
      this.entries.delete(id);
      throw ERRORS.sessionExpired();
    }
    return entry.value;
  }

  delete(id: string): void {
    this.entries.delete(id);
  }

  private sweep(): void {
    const now = this.now();
    for (const [id, entry] of this.entries) if (entry.expiresAt <= now) this.entries.delete(id);
  }
}

export class AuthSessions {
  /** Keyed by SECRET_BLOCK, which the client echoes in PASSWORD_CLAIM_SECRET_BLOCK. */
  readonly srp: ExpiringMap<SrpState>;
  /** Keyed by the Session string of challenge answers. */
  readonly challenges: ExpiringMap<ChallengeState>;
  /** USER_AUTH steps before the first factor, keyed by their Session string. */
  readonly userAuth: ExpiringMap<UserAuthState>;
  /** Passkey registrations in progress, one per user (keyed by username), for the options' timeout. */
  readonly registrations: ExpiringMap<PendingRegistration>;

  constructor(now: () => number) {
    this.srp = new ExpiringMap(now);
    this.challenges = new ExpiringMap(now);
    this.userAuth = new ExpiringMap(now);
    this.registrations = new ExpiringMap(now, POOL.passkeyRegistrationMs);
  }

  /** A USER_AUTH step; the previous step's session, if any, stops working. */
  nextUserAuth(state: UserAuthState, previous?: string): string {
    if (previous !== undefined) this.userAuth.delete(previous);
    const session = randomBytes(96).toString('base64url');
    this.userAuth.put(session, state);
    return session;
  }

  startSrp(state: SrpState): string {
    const secretBlock = randomBytes(96).toString('base64');
    this.srp.put(secretBlock, state);
    return secretBlock;
  }

  /** Each step of a sign-in gets a new session string; the previous one stops working. */
  nextChallenge(state: ChallengeState, previous?: string): string {
    if (previous !== undefined) this.challenges.delete(previous);
    const session = randomBytes(96).toString('base64url');
    this.challenges.put(session, state);
    return session;
  }
}

import {
  CognitoIdentityProviderClient,
  GetUserCommand,
  InternalErrorException,
  NotAuthorizedException,
} from '@aws-sdk/client-cognito-identity-provider';
import { mockClient } from 'aws-sdk-client-mock';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { createSessionCache } from '#lambdas/shared/auth/session-cache.ts';
import { CLIENT_ID, POOL_ID, REGION, createSigner, type TestSigner } from './support/tokens.ts';

/** GraphQL reuses an accepted GetUser answer for 2 s: the root fields of one request share one check. */
const PERIOD_MS = 2_000;

describe('createSessionCache', () => {
  const clock = () => {
    let now = 1_000_000;
    return { now: () => now, advance: (ms: number) => (now += ms) };
  };

  it('returns an answer within the period and forgets it after', () => {
    const time = clock();
    const cache = createSessionCache<string>({ ttlMs: 5000, now: time.now });
    cache.set('token-a', 'alice');
    time.advance(4999);
    expect(cache.get('token-a')).toBe('alice');
    time.advance(1);
    expect(cache.get('token-a')).toBeUndefined();
  });

  it('keeps answers apart per token and never stores the token itself', () => {
    const cache = createSessionCache<string>();
    cache.set('token-a', 'alice');
    expect(cache.get('token-b')).toBeUndefined();
    expect(cache.get('token-a')).toBe('alice');
  });

  it('holds at most maxEntries, dropping the oldest first', () => {
    const time = clock();
    const cache = createSessionCache<number>({ maxEntries: 3, now: time.now });
    for (const n of [1, 2, 3, 4]) {
      cache.set(`token-${n}`, n);
      time.advance(10);
    }
    expect(cache.size).toBe(3);
    expect(cache.get('token-1')).toBeUndefined();
    expect(cache.get('token-4')).toBe(4);
  });

  it('drops expired entries when new ones arrive, so an idle token does not hold a slot', () => {
    const time = clock();
    const cache = createSessionCache<number>({ ttlMs: 100, now: time.now });
    cache.set('token-1', 1);
    cache.set('token-2', 2);
    time.advance(150);
    cache.set('token-3', 3);
    expect(cache.size).toBe(1);
  });

  it('keeps nothing with a period of 0 and refuses a bad size', () => {
    const cache = createSessionCache<number>({ ttlMs: 0 });
    cache.set('token-1', 1);
    expect(cache.get('token-1')).toBeUndefined();
    expect(() => createSessionCache({ maxEntries: 0 })).toThrow(RangeError);
  });
});

/** The GraphQL resolver's setting: root fields of one request share one check. */
const REUSE = { reuseRecentCheck: true } as const;

describe('authenticate reuses a live-session check for a few seconds', () => {
  const cognito = mockClient(CognitoIdentityProviderClient);
  const USER = { username: '6f1c1d52-2a4e-4c8e-9d55-0f7c3e1b2a90', groups: ['Users'] };
  let signer: TestSigner;
  let auth: typeof import('#lambdas/shared/auth/caller.ts');
  const previous: Record<string, string | undefined> = {};

  const getUserCalls = () => cognito.commandCalls(GetUserCommand).length;
  const live = () =>
    cognito.on(GetUserCommand).resolves({
      Username: USER.username,
      UserAttributes: [
        { Name: 'email', Value: 'User@Example.com' },
        { Name: 'email_verified', Value: 'true' },
      ],
    });

  beforeAll(async () => {
    signer = await createSigner();
    const environment = {
      AWS_REGION: REGION,
      AWS_ACCESS_KEY_ID: 'test',
      AWS_SECRET_ACCESS_KEY: 'test',
      USER_POOL_ID: POOL_ID,
      USER_POOL_CLIENT_ID: CLIENT_ID,
      COGNITO_JWKS: signer.jwks,
      ABSOLUTE_SESSION_MINUTES: '720',
    };
    for (const [name, value] of Object.entries(environment)) {
      previous[name] = process.env[name];
      process.env[name] = value;
    }
    auth = await import('#lambdas/shared/auth/caller.ts');
  });

  beforeEach(() => {
    vi.useFakeTimers({ toFake: ['Date'] });
    auth.liveSessions.clear();
    cognito.reset();
  });

  afterEach(() => {
    vi.useRealTimers();
  });

  afterAll(() => {
    cognito.restore();
    for (const [name, value] of Object.entries(previous)) {
      if (value === undefined) delete process.env[name];
      else process.env[name] = value;
    }
  });

  it('sends no second GetUser for the same token within the period', async () => {
    live();
    const token = await signer.accessToken(USER);
    const first = await auth.authenticate(token, REUSE);
    vi.advanceTimersByTime(PERIOD_MS - 1);
    const second = await auth.authenticate(token, REUSE);
    expect(getUserCalls()).toBe(1);
    expect(second).toEqual(first);
    expect(second.email).toBe('user@example.com');
  });

  it('asks Cognito again once the period is over, and refuses a token revoked meanwhile', async () => {
    live();
    const token = await signer.accessToken(USER);
    await auth.authenticate(token, REUSE);
    cognito
      .on(GetUserCommand)
      .rejects(new NotAuthorizedException({ message: 'Access Token has been revoked', $metadata: {} }));
    vi.advanceTimersByTime(PERIOD_MS);
    await expect(auth.authenticate(token, REUSE)).rejects.toMatchObject({ status: 401, message: auth.SESSION_ENDED });
    expect(getUserCalls()).toBe(2);
  });

  it('asks Cognito for another token within the period', async () => {
    live();
    await auth.authenticate(await signer.accessToken(USER), REUSE);
    await auth.authenticate(await signer.accessToken(USER), REUSE);
    expect(getUserCalls()).toBe(2);
  });

  it('does not keep a refusal: the next call asks again and stays refused', async () => {
    cognito.on(GetUserCommand).rejects(new NotAuthorizedException({ message: 'User is disabled.', $metadata: {} }));
    const token = await signer.accessToken(USER);
    await expect(auth.authenticate(token, REUSE)).rejects.toMatchObject({ status: 401 });
    await expect(auth.authenticate(token, REUSE)).rejects.toMatchObject({ status: 401 });
    expect(getUserCalls()).toBe(2);
  });

  it('does not keep a failed check as a live session', async () => {
    cognito.on(GetUserCommand).rejectsOnce(new InternalErrorException({ message: 'boom', $metadata: {} }));
    const token = await signer.accessToken(USER);
    await expect(auth.authenticate(token, REUSE)).rejects.toMatchObject({ status: 502 });
    live();
    await auth.authenticate(token, REUSE);
    expect(getUserCalls()).toBe(2);
  });

  it('still checks signature and expiry on every call, whatever is cached', async () => {
    live();
    const token = await signer.accessToken(USER, { expiresIn: 5 });
    await auth.authenticate(token, REUSE);
    vi.advanceTimersByTime(6000);
    await expect(auth.authenticate(token, REUSE)).rejects.toMatchObject({ status: 401 });
    expect(getUserCalls()).toBe(1);
  });

  it('asks Cognito on every call unless reuse is asked for (every function URL)', async () => {
    live();
    const token = await signer.accessToken(USER);
    await auth.authenticate(token, REUSE);
    await auth.authenticate(token);
    await auth.authenticate(token, { reuseRecentCheck: false });
    expect(getUserCalls()).toBe(3);
  });
});

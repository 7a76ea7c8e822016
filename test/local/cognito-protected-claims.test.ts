import type { PreTokenGenerationV2TriggerEvent } from 'aws-lambda';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createEnrolledUser, startHarness, type CognitoHarness } from './support/cognito-harness.ts';

/**
 * The claims a pre token generation trigger cannot modify. "Pre token generation Lambda
 * trigger", https://docs.aws.amazon.com/cognito/latest/developerguide/user-pool-lambda-pre-token-generation.html:
 * "You can not modify the following claims", in the page's order.
 */
const CLAIMS_THE_PAGE_LISTS = [
  'acr',
  'amr',
  'aud',
  'at_hash',
  'auth_time',
  'azp',
  'cognito:username',
  'exp',
  'iat',
  'identities',
  'iss',
  'jti',
  'nbf',
  'nonce',
  'origin_jti',
  'sub',
  'token_use',
];
/**
 * Claims of the version 2 access token the emulator also keeps as Cognito wrote them. The same
 * page's "Claims and scopes reference" table gives client_id, event_id and username "Can add? No,
 * Can modify? No, Can suppress? No", and scope changes only with accessTokenGeneration's
 * scopesToAdd and scopesToSuppress, not as a claim. The code flow's c_hash is on no AWS page:
 * the emulator keeps it with at_hash, which the table lists.
 */
const CLAIMS_OF_THE_ACCESS_TOKEN = ['client_id', 'event_id', 'scope', 'username', 'c_hash'];
const PROTECTED = [...CLAIMS_THE_PAGE_LISTS, ...CLAIMS_OF_THE_ACCESS_TOKEN];

const MARKER = 'set-by-the-trigger';
type Mode = 'none' | 'override' | 'suppress';
let mode: Mode = 'none';

/**
 * The trigger's answer for both tokens: every protected claim overridden or suppressed, and one ordinary claim of
 * each kind as a control.
 */
const respond = async (event: PreTokenGenerationV2TriggerEvent) => {
  if (mode === 'none') return event;
  const generation =
    mode === 'override'
      ? {
          claimsToAddOrOverride: {
            ...Object.fromEntries(PROTECTED.map((claim) => [claim, MARKER])),
            'custom:tier': MARKER,
          },
        }
      : { claimsToSuppress: [...PROTECTED, 'cognito:groups'] };
  event.response = {
    claimsAndScopeOverrideDetails: { idTokenGeneration: generation, accessTokenGeneration: generation },
  };
  return event;
};

let harness: CognitoHarness;
/** Tokens of a sign-in the trigger left alone: the claims as Cognito writes them. */
let plain: { id: Record<string, unknown>; access: Record<string, unknown> };
beforeAll(async () => {
  harness = await startHarness({ preTokenGeneration: respond });
  plain = await tokensWith('none', 'plain-claims@example.com');
});
afterAll(() => harness.close());

const claimsOf = (token: string) =>
  JSON.parse(Buffer.from(token.split('.')[1] ?? '', 'base64url').toString()) as Record<string, unknown>;

async function tokensWith(triggerMode: Mode, email: string) {
  mode = triggerMode;
  try {
    const { session } = await createEnrolledUser(harness, email, 'Claims#Pass12', ['Users']);
    return {
      id: claimsOf(session.getIdToken().getJwtToken()),
      access: claimsOf(session.getAccessToken().getJwtToken()),
    };
  } finally {
    mode = 'none';
  }
}

/** The claims Cognito writes whatever the trigger answers: those of a token the trigger left alone. */
const writtenByCognito = (claims: Record<string, unknown>) => PROTECTED.filter((claim) => claim in claims);

describe('a pre token generation trigger and the claims it cannot modify', () => {
  it('leaves every protected claim as Cognito wrote it when the trigger overrides it, and applies the ordinary claim', async () => {
    const overridden = await tokensWith('override', 'override-claims@example.com');
    for (const token of ['id', 'access'] as const) {
      // The trigger ran: the claim it may add is there.
      expect(overridden[token]['custom:tier']).toBe(MARKER);
      for (const claim of PROTECTED)
        expect({ claim, token, value: overridden[token][claim] }).not.toMatchObject({ value: MARKER });
      // What Cognito writes is still written, and nothing protected that it does not write appears.
      expect(PROTECTED.filter((claim) => claim in overridden[token])).toEqual(writtenByCognito(plain[token]));
    }
    expect(overridden.access.token_use).toBe('access');
    expect(overridden.id.token_use).toBe('id');
    expect(overridden.access.scope).toBe('aws.cognito.signin.user.admin');
  });

  it('keeps every protected claim Cognito writes when the trigger suppresses it, and suppresses the ordinary claim', async () => {
    const suppressed = await tokensWith('suppress', 'suppress-claims@example.com');
    for (const token of ['id', 'access'] as const) {
      expect(plain[token]['cognito:groups']).toEqual(['Users']);
      expect(suppressed[token]).not.toHaveProperty('cognito:groups');
      expect(writtenByCognito(suppressed[token])).toEqual(writtenByCognito(plain[token]));
    }
    // The core of each token, named: the tokens stay verifiable and tied to their user and sign-in.
    for (const claim of ['sub', 'iss', 'exp', 'iat', 'jti', 'auth_time', 'origin_jti', 'token_use']) {
      expect(suppressed.id).toHaveProperty([claim]);
      expect(suppressed.access).toHaveProperty([claim]);
    }
    for (const claim of ['aud', 'cognito:username']) expect(suppressed.id).toHaveProperty([claim]);
    for (const claim of ['client_id', 'username', 'scope', 'event_id'])
      expect(suppressed.access).toHaveProperty([claim]);
  });
});

import { createHash } from 'node:crypto';
import { verifyAuthenticationResponse, verifyRegistrationResponse } from '@simplewebauthn/server';
import {
  decodeAttestationObject,
  decodeClientDataJSON,
  decodeCredentialPublicKey,
  isoBase64URL,
  parseAuthenticatorData,
} from '@simplewebauthn/server/helpers';
import { z } from 'zod';
import { ERRORS } from './errors.ts';
import { friendlyName, PASSKEY_ALGORITHMS, signInPasskeys, userHandle } from './passkeys.ts';
import type { PasskeyRecord, UserRecord } from './state.ts';
import { originAllowed, type PasskeyPool } from './webauthn-config.ts';

/**
 * The checks of a passkey registration (CompleteWebAuthnRegistration) and of a passkey sign-in
 * (the WEB_AUTHN challenge). The signatures, attestation and counters are verified by
 * @simplewebauthn/server; the checks that have an exception of their own in Cognito (challenge,
 * origin, relying party, algorithm, user verification) are made first so that each failure gets it.
 */

const base64url = z
  .string()
  .min(1)
  .regex(/^[A-Za-z0-9_-]+$/);

const registrationResponse = z.object({
  id: base64url,
  rawId: base64url,
  type: z.literal('public-key'),
  response: z.object({
    clientDataJSON: base64url,
    attestationObject: base64url,
    transports: z.array(z.string().max(32)).max(10).optional(),
  }),
  authenticatorAttachment: z.enum(['platform', 'cross-platform']).optional(),
  clientExtensionResults: z.record(z.string(), z.unknown()).optional(),
});

const authenticationResponse = z.object({
  id: base64url,
  rawId: base64url,
  type: z.literal('public-key'),
  response: z.object({
    clientDataJSON: base64url,
    authenticatorData: base64url,
    signature: base64url,
    userHandle: z.string().optional(),
  }),
  authenticatorAttachment: z.enum(['platform', 'cross-platform']).optional(),
  clientExtensionResults: z.record(z.string(), z.unknown()).optional(),
});

const sha256 = (text: string) => createHash('sha256').update(text).digest();

function clientData(encoded: string) {
  try {
    return decodeClientDataJSON(encoded);
  } catch {
    throw ERRORS.invalidWebAuthnCredential();
  }
}

/** The credential's public key and what its authenticator data says, or InvalidParameterException. */
function attestedCredential(attestationObject: string) {
  try {
    const authData = decodeAttestationObject(isoBase64URL.toBuffer(attestationObject)).get('authData');
    const parsed = parseAuthenticatorData(authData);
    const publicKey = parsed.credentialPublicKey;
    if (!publicKey) throw new Error('no attested credential data');
    const algorithm = decodeCredentialPublicKey(publicKey).get(3);
    return { rpIdHash: Buffer.from(parsed.rpIdHash), userVerified: parsed.flags.uv, algorithm };
  } catch {
    throw ERRORS.invalidWebAuthnCredential();
  }
}

/**
 * A new passkey from a RegistrationResponseJSON answering `challenge`, the user's pending
 * registration. Errors: a response to another challenge, WebAuthnChallengeNotFoundException; an
 * origin that does not align with the relying party, WebAuthnOriginNotAllowedException; a credential
 * of another relying party, WebAuthnRelyingPartyMismatchException; an algorithm other than ES256 or
 * RS256, or no user verification where the pool requires it, WebAuthnCredentialNotSupportedException;
 * anything else malformed or not verifying, InvalidParameterException.
 */
export async function verifyRegistration(
  pool: PasskeyPool,
  challenge: string,
  credential: unknown,
  now: number,
): Promise<PasskeyRecord> {
  const parsed = registrationResponse.safeParse(credential);
  if (!parsed.success || parsed.data.id !== parsed.data.rawId) throw ERRORS.invalidWebAuthnCredential();
  const response = parsed.data;
  const data = clientData(response.response.clientDataJSON);
  if (data.type !== 'webauthn.create') throw ERRORS.invalidWebAuthnCredential();
  if (data.challenge !== challenge) throw ERRORS.webAuthnChallengeNotFound();
  if (!originAllowed(pool, data.origin)) throw ERRORS.webAuthnOriginNotAllowed();
  const attested = attestedCredential(response.response.attestationObject);
  if (!attested.rpIdHash.equals(sha256(pool.relyingPartyId))) throw ERRORS.webAuthnRelyingPartyMismatch();
  if (
    typeof attested.algorithm !== 'number' ||
    !(PASSKEY_ALGORITHMS as readonly number[]).includes(attested.algorithm)
  ) {
    throw ERRORS.webAuthnCredentialNotSupported('its public key algorithm is not ES256 or RS256');
  }
  const userVerificationRequired = pool.userVerification === 'required';
  if (userVerificationRequired && !attested.userVerified) {
    throw ERRORS.webAuthnCredentialNotSupported('the authenticator did not verify the user');
  }
  let verified;
  try {
    verified = await verifyRegistrationResponse({
      response: { ...response, clientExtensionResults: response.clientExtensionResults ?? {} },
      expectedChallenge: challenge,
      expectedOrigin: data.origin,
      expectedRPID: pool.relyingPartyId,
      requireUserVerification: userVerificationRequired,
      supportedAlgorithmIDs: [...PASSKEY_ALGORITHMS],
    });
  } catch {
    throw ERRORS.invalidWebAuthnCredential();
  }
  if (!verified.verified) throw ERRORS.invalidWebAuthnCredential();
  const { credential: key } = verified.registrationInfo;
  return {
    id: key.id,
    publicKey: isoBase64URL.fromBuffer(key.publicKey),
    algorithm: attested.algorithm,
    counter: key.counter,
    transports: response.response.transports ?? [],
    ...(response.authenticatorAttachment ? { attachment: response.authenticatorAttachment } : {}),
    friendlyName: friendlyName(response.authenticatorAttachment),
    relyingPartyId: pool.relyingPartyId,
    createdAt: now,
  };
}

export interface VerifiedAssertion {
  passkey: PasskeyRecord;
  /** The authenticator data's UV flag. */
  userVerified: boolean;
  newCounter: number;
}

/**
 * A passkey sign-in's AuthenticationResponseJSON (the CREDENTIAL of a WEB_AUTHN answer), checked
 * against the challenge of the sign-in's session: one of the user's passkeys, the challenge, an
 * allowed origin, the relying party, the signature, user verification where it is required, and a
 * signature counter above the last one seen. A CREDENTIAL that is not JSON of that shape is an
 * InvalidParameterException; any failed check is NotAuthorizedException, as a wrong password is.
 */
export async function verifyAssertion(
  pool: PasskeyPool,
  user: UserRecord,
  expected: { challenge: string; userVerification: 'required' | 'preferred' },
  credentialJson: string,
): Promise<VerifiedAssertion> {
  let json: unknown;
  try {
    json = JSON.parse(credentialJson);
  } catch {
    throw ERRORS.invalidWebAuthnCredential();
  }
  const parsed = authenticationResponse.safeParse(json);
  if (!parsed.success) throw ERRORS.invalidWebAuthnCredential();
  const response = parsed.data;
  const passkey = signInPasskeys(pool, user).find((candidate) => candidate.id === response.id);
  if (!passkey || response.rawId !== response.id) throw ERRORS.incorrectCredentials();
  const handle = response.response.userHandle;
  if (handle !== undefined && handle !== '' && handle !== userHandle(user)) throw ERRORS.incorrectCredentials();
  const data = clientData(response.response.clientDataJSON);
  if (data.type !== 'webauthn.get' || data.challenge !== expected.challenge || !originAllowed(pool, data.origin)) {
    throw ERRORS.incorrectCredentials();
  }
  try {
    const verified = await verifyAuthenticationResponse({
      response: { ...response, clientExtensionResults: response.clientExtensionResults ?? {} },
      expectedChallenge: expected.challenge,
      expectedOrigin: data.origin,
      expectedRPID: pool.relyingPartyId,
      credential: {
        id: passkey.id,
        publicKey: isoBase64URL.toBuffer(passkey.publicKey),
        counter: passkey.counter,
        transports: passkey.transports,
      },
      requireUserVerification: expected.userVerification === 'required',
    });
    if (!verified.verified) throw new Error('not verified');
    const info = verified.authenticationInfo;
    return { passkey, userVerified: info.userVerified, newCounter: info.newCounter };
  } catch {
    throw ERRORS.incorrectCredentials();
  }
}

import { createHash, generateKeyPairSync, randomBytes, sign, type KeyObject } from 'node:crypto';
import { isoCBOR } from '@simplewebauthn/server/helpers';

/**
 * A software WebAuthn authenticator for tests: it holds one passkey (an ES256 or RS256 key pair
 * made with node:crypto) and answers a relying party's ceremonies as a browser and authenticator
 * would, with attestation "none".
 *
 *   const authenticator = createAuthenticator({ algorithm: 'ES256' });
 *   // StartWebAuthnRegistration's CredentialCreationOptions (object or JSON string):
 *   const credential = authenticator.register(options, { origin: 'http://localhost:5173' });
 *   // CompleteWebAuthnRegistration({ AccessToken, Credential: credential })
 *   // A WEB_AUTHN challenge's CREDENTIAL_REQUEST_OPTIONS (object or JSON string):
 *   const assertion = authenticator.authenticate(requestOptions, { origin: 'http://localhost:5173' });
 *   // RespondToAuthChallenge WEB_AUTHN with CREDENTIAL: JSON.stringify(assertion)
 *
 * Each ceremony takes its origin (clientDataJSON.origin) and, to test a relying party's checks:
 * `userVerified` (the UV flag, default true: a biometric or PIN check passed), `rpId` (the relying
 * party the authenticator data is hashed for, default the options' own), and for assertions
 * `counter` (the signature counter to report; by default it goes up by one each time, so an earlier
 * value replays an older count). `ignoreAllowCredentials` answers options that do not list this
 * passkey, as a browser never would. The results are the W3C RegistrationResponseJSON and
 * AuthenticationResponseJSON forms.
 */

type PasskeyAlgorithm = 'ES256' | 'RS256';

export interface AuthenticatorOptions {
  /** @default 'ES256' */
  algorithm?: PasskeyAlgorithm;
  /** authenticatorAttachment of the responses. @default 'platform' */
  attachment?: 'platform' | 'cross-platform';
  /** The transports registration reports. @default ['internal'] for platform, ['usb'] otherwise */
  transports?: string[];
}

export interface CeremonyOptions {
  /** clientDataJSON.origin, e.g. 'http://localhost:5173'. */
  origin: string;
  /** The UV flag of the authenticator data. @default true */
  userVerified?: boolean;
  /** The relying party the authenticator data names (rpIdHash). @default the options' relying party */
  rpId?: string;
}

export interface AssertionOptions extends CeremonyOptions {
  /** The signature counter to report. @default one more than the last one reported */
  counter?: number;
  /** Answer even options whose allowCredentials do not list this passkey. @default false */
  ignoreAllowCredentials?: boolean;
}

interface RegistrationResponseJSON {
  id: string;
  rawId: string;
  type: 'public-key';
  response: { clientDataJSON: string; attestationObject: string; transports: string[] };
  authenticatorAttachment: 'platform' | 'cross-platform';
  clientExtensionResults: Record<string, never>;
}

interface AuthenticationResponseJSON {
  id: string;
  rawId: string;
  type: 'public-key';
  response: { clientDataJSON: string; authenticatorData: string; signature: string; userHandle?: string };
  authenticatorAttachment: 'platform' | 'cross-platform';
  clientExtensionResults: Record<string, never>;
}

export interface SoftwareAuthenticator {
  /** The passkey's credential ID, base64url. */
  readonly credentialId: string;
  readonly algorithm: PasskeyAlgorithm;
  /** The last signature counter reported (0 after registration). */
  readonly counter: number;
  /** navigator.credentials.create(): a new credential for PublicKeyCredentialCreationOptionsJSON. */
  register(options: object | string, ceremony: CeremonyOptions): RegistrationResponseJSON;
  /** navigator.credentials.get(): an assertion for PublicKeyCredentialRequestOptionsJSON. */
  authenticate(options: object | string, ceremony: AssertionOptions): AuthenticationResponseJSON;
}

const FLAG_USER_PRESENT = 0x01;
const FLAG_USER_VERIFIED = 0x04;
const FLAG_ATTESTED_DATA = 0x40;

const b64url = (bytes: Uint8Array) => Buffer.from(bytes).toString('base64url');
const sha256 = (data: Uint8Array | string) => createHash('sha256').update(data).digest();

interface CreationOptionsJSON {
  challenge: string;
  rp: { id?: string; name: string };
  user: { id: string; name: string; displayName: string };
}

interface RequestOptionsJSON {
  challenge: string;
  rpId?: string;
  allowCredentials?: { id: string }[];
}

const parsed = <T>(options: object | string): T => (typeof options === 'string' ? JSON.parse(options) : options) as T;

/** The public key in COSE form (RFC 9053): EC2 P-256 for ES256, RSA for RS256. */
function coseKey(algorithm: PasskeyAlgorithm, publicKey: KeyObject): Uint8Array {
  const jwk = publicKey.export({ format: 'jwk' });
  const bytes = (value: string | undefined) => new Uint8Array(Buffer.from(value ?? '', 'base64url'));
  const key =
    algorithm === 'ES256'
      ? new Map<number, number | Uint8Array>([
          [1, 2],
          [3, -7],
          [-1, 1],
          [-2, bytes(jwk.x)],
          [-3, bytes(jwk.y)],
        ])
      : new Map<number, number | Uint8Array>([
          [1, 3],
          [3, -257],
          [-1, bytes(jwk.n)],
          [-2, bytes(jwk.e)],
        ]);
  return isoCBOR.encode(key);
}

function clientDataJSON(type: 'webauthn.create' | 'webauthn.get', challenge: string, origin: string): Buffer {
  return Buffer.from(JSON.stringify({ type, challenge, origin, crossOrigin: false }));
}

export function createAuthenticator(options: AuthenticatorOptions = {}): SoftwareAuthenticator {
  const algorithm = options.algorithm ?? 'ES256';
  const attachment = options.attachment ?? 'platform';
  const transports = options.transports ?? (attachment === 'platform' ? ['internal'] : ['usb']);
  const { privateKey, publicKey } =
    algorithm === 'ES256'
      ? generateKeyPairSync('ec', { namedCurve: 'P-256' })
      : generateKeyPairSync('rsa', { modulusLength: 2048 });
  const credentialId = randomBytes(32);
  let counter = 0;
  let userHandle: string | undefined;

  const authenticatorData = (rpId: string, flags: number, count: number, attested?: Uint8Array) => {
    const countBytes = Buffer.alloc(4);
    countBytes.writeUInt32BE(count);
    const parts = [sha256(rpId), Buffer.from([flags]), countBytes];
    if (attested) parts.push(Buffer.from(attested));
    return Buffer.concat(parts);
  };

  return {
    credentialId: b64url(credentialId),
    algorithm,
    get counter() {
      return counter;
    },
    register(creation, ceremony) {
      const request = parsed<CreationOptionsJSON>(creation);
      const rpId = ceremony.rpId ?? request.rp.id ?? new URL(ceremony.origin).hostname;
      userHandle = request.user.id;
      const idLength = Buffer.alloc(2);
      idLength.writeUInt16BE(credentialId.length);
      // An all-zero AAGUID, as authenticators that give no attestation report.
      const attested = Buffer.concat([Buffer.alloc(16), idLength, credentialId, coseKey(algorithm, publicKey)]);
      const flags = FLAG_USER_PRESENT | (ceremony.userVerified === false ? 0 : FLAG_USER_VERIFIED) | FLAG_ATTESTED_DATA;
      const attestationObject = isoCBOR.encode(
        new Map<string, string | Map<string, string> | Uint8Array>([
          ['fmt', 'none'],
          ['attStmt', new Map<string, string>()],
          ['authData', new Uint8Array(authenticatorData(rpId, flags, 0, attested))],
        ]),
      );
      return {
        id: b64url(credentialId),
        rawId: b64url(credentialId),
        type: 'public-key',
        response: {
          clientDataJSON: b64url(clientDataJSON('webauthn.create', request.challenge, ceremony.origin)),
          attestationObject: b64url(attestationObject),
          transports,
        },
        authenticatorAttachment: attachment,
        clientExtensionResults: {},
      };
    },
    authenticate(requestOptions, ceremony) {
      const request = parsed<RequestOptionsJSON>(requestOptions);
      const listed = request.allowCredentials ?? [];
      if (!ceremony.ignoreAllowCredentials && listed.length > 0 && !listed.some((c) => c.id === b64url(credentialId))) {
        throw new Error('The request options do not allow this passkey (the browser would find no credential)');
      }
      const rpId = ceremony.rpId ?? request.rpId ?? new URL(ceremony.origin).hostname;
      const count = ceremony.counter ?? counter + 1;
      counter = Math.max(counter, count);
      const flags = FLAG_USER_PRESENT | (ceremony.userVerified === false ? 0 : FLAG_USER_VERIFIED);
      const data = authenticatorData(rpId, flags, count);
      const client = clientDataJSON('webauthn.get', request.challenge, ceremony.origin);
      const signed = Buffer.concat([data, sha256(client)]);
      return {
        id: b64url(credentialId),
        rawId: b64url(credentialId),
        type: 'public-key',
        response: {
          clientDataJSON: b64url(client),
          authenticatorData: b64url(data),
          signature: b64url(sign('sha256', signed, privateKey)),
          ...(userHandle !== undefined ? { userHandle } : {}),
        },
        authenticatorAttachment: attachment,
        clientExtensionResults: {},
      };
    },
  };
}

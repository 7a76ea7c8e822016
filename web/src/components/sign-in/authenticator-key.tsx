import { QrCode, totpUri } from './qr-code.tsx';

/** Groups the key in fours so it can be typed without losing one's place. */
const formatKey = (secret: string) => secret.replace(/(.{4})/g, '$1 ').trim();

export interface AuthenticatorKeyProps {
  /** The TOTP secret; it goes only to the QR code drawn in the browser and the manual key. */
  readonly secret: string;
  /** The product name: the authenticator's issuer. */
  readonly issuer: string;
  /** The account's login identifier, shown in the authenticator app. */
  readonly accountName: string;
}

/** A new authenticator secret, as a QR code to scan and as a key to type. */
export function AuthenticatorKey({ secret, issuer, accountName }: AuthenticatorKeyProps) {
  return (
    <>
      <div className="qr-frame">
        <QrCode
          value={totpUri(issuer, accountName, secret)}
          label={`QR code to add ${issuer} to your authenticator app`}
        />
      </div>
      <div className="field">
        <span className="field-label" id="manual-key-label">
          Manual entry key
        </span>
        <code className="secret-key" aria-labelledby="manual-key-label">
          {formatKey(secret)}
        </code>
        <span className="field-hint">If you cannot scan the code, enter this key in the app (time-based).</span>
      </div>
    </>
  );
}

import { toString as qrSvg } from 'qrcode';
import { useEffect, useState } from 'react';
import { Spinner } from '#web/components/spinner.tsx';

/** otpauth URI of an authenticator enrolment; the product is the issuer. */
export function totpUri(issuer: string, accountName: string, secret: string): string {
  const label = `${encodeURIComponent(issuer)}:${encodeURIComponent(accountName)}`;
  return `otpauth://totp/${label}?secret=${encodeURIComponent(secret)}&issuer=${encodeURIComponent(issuer)}`;
}

const QR_SIZE = 200;

/**
 * The QR code, drawn in the browser as SVG. The URI holds the TOTP secret, so it is never
 * sent to an image service.
 */
export function QrCode({ value, label }: { readonly value: string; readonly label: string }) {
  const [svg, setSvg] = useState<string | null>(null);
  const [failed, setFailed] = useState(false);

  useEffect(() => {
    let current = true;
    qrSvg(value, { type: 'svg', width: QR_SIZE, margin: 1, errorCorrectionLevel: 'M' })
      .then((markup) => {
        if (current) setSvg(markup);
      })
      .catch(() => {
        if (current) setFailed(true);
      });
    return () => {
      current = false;
    };
  }, [value]);

  if (failed) return <p className="text-danger">The QR code could not be drawn; use the manual entry key.</p>;
  if (!svg) return <Spinner label="Drawing the QR code..." size="sm" />;
  return (
    <img
      src={`data:image/svg+xml;charset=utf-8,${encodeURIComponent(svg)}`}
      alt={label}
      width={QR_SIZE}
      height={QR_SIZE}
      className="qr-code"
    />
  );
}

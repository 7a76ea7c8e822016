import { useCallback, useEffect, useRef, useState, type FormEvent } from 'react';
import { Alert } from '../../../components/alert.tsx';
import { Button } from '../../../components/button.tsx';
import { Spinner } from '../../../components/spinner.tsx';
import type { MfaSetupDriver } from '../../../lib/auth/types.ts';
import { POPULAR_AUTHENTICATOR_APPS } from '../popular-apps.ts';
import { isCompleteMfaCode, MfaCodeField } from './mfa-code-field.tsx';
import { QrCode, totpUri } from './qr-code.tsx';

export interface MfaSetupWizardProps {
  /** Where the secret comes from and the code goes to (Cognito or the MFA function). */
  readonly driver: () => Promise<MfaSetupDriver>;
  /** The account's login identifier, shown in the authenticator app. */
  readonly accountName: string;
  /** The product name: the authenticator's issuer. */
  readonly issuer: string;
  readonly messages: { readonly associateFailed: string; readonly verifyFailed: string };
  /** Called once step 3 is shown; the parent redirects. */
  readonly onComplete: () => void;
  readonly onCancel?: () => void;
  readonly redirectText?: string;
}

type Step =
  | { readonly kind: 'associating' }
  | { readonly kind: 'associateFailed' }
  | { readonly kind: 'scan'; readonly secret: string; readonly setup: MfaSetupDriver }
  | { readonly kind: 'done' };

/** Groups the key in fours so it can be typed without losing one's place. */
const formatKey = (secret: string) => secret.replace(/(.{4})/g, '$1 ').trim();

/**
 * Authenticator enrolment in three steps: 1 get a secret, 2 scan (or type) it and prove a
 * code, 3 confirmation while the parent redirects.
 */
export default function MfaSetupWizard({
  driver,
  accountName,
  issuer,
  messages,
  onComplete,
  onCancel,
  redirectText = 'Redirecting to dashboard...',
}: MfaSetupWizardProps) {
  const [step, setStep] = useState<Step>({ kind: 'associating' });
  const [code, setCode] = useState('');
  const [touched, setTouched] = useState(false);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const started = useRef(false);

  const associate = useCallback(async () => {
    setStep({ kind: 'associating' });
    setError(null);
    try {
      const setup = await driver();
      const secret = await setup.associate();
      setStep({ kind: 'scan', secret, setup });
    } catch {
      setError(messages.associateFailed);
      setStep({ kind: 'associateFailed' });
    }
  }, [driver, messages.associateFailed]);

  useEffect(() => {
    // One secret per wizard: a second association would replace the first.
    if (started.current) return;
    started.current = true;
    void associate();
  }, [associate]);

  const verify = async (event: FormEvent) => {
    event.preventDefault();
    setTouched(true);
    if (step.kind !== 'scan' || !isCompleteMfaCode(code) || busy) return;
    setBusy(true);
    setError(null);
    try {
      await step.setup.verify(code);
      setStep({ kind: 'done' });
      onComplete();
    } catch {
      setError(messages.verifyFailed);
      setCode('');
      setTouched(false);
    } finally {
      setBusy(false);
    }
  };

  return (
    <section className="stack" aria-labelledby="mfa-setup-title">
      <div>
        <h2 id="mfa-setup-title">Set Up Multi-Factor Authentication</h2>
        <p className="text-muted">
          Your account requires an authenticator app. Step {step.kind === 'done' ? 3 : step.kind === 'scan' ? 2 : 1} of
          3.
        </p>
      </div>
      {error && <Alert tone="error">{error}</Alert>}

      {step.kind === 'associating' && <Spinner label="Setting up your MFA secret..." />}

      {step.kind === 'associateFailed' && (
        <div className="row">
          <Button onClick={() => void associate()}>Try Again</Button>
          {onCancel && (
            <Button variant="secondary" onClick={onCancel}>
              Cancel
            </Button>
          )}
        </div>
      )}

      {step.kind === 'scan' && (
        <form className="stack" noValidate onSubmit={verify}>
          <p>Open your authenticator app and scan this QR code, or enter the key below.</p>
          <div className="qr-frame">
            <QrCode value={totpUri(issuer, accountName, step.secret)} label={`QR code to add ${issuer} to your authenticator app`} />
          </div>
          <div className="field">
            <span className="field-label" id="manual-key-label">
              Manual entry key
            </span>
            <code className="secret-key" aria-labelledby="manual-key-label">
              {formatKey(step.secret)}
            </code>
            <span className="field-hint">If you cannot scan the code, enter this key in the app (time-based).</span>
          </div>
          <MfaCodeField
            label="Enter the 6-digit code from your app"
            value={code}
            onChange={setCode}
            touched={touched}
            onBlur={() => setTouched(true)}
            disabled={busy}
          />
          <div className="row">
            <Button type="submit" disabled={!isCompleteMfaCode(code) || busy}>
              {busy ? 'Verifying...' : 'Verify & Complete Setup'}
            </Button>
            {onCancel && (
              <Button variant="secondary" onClick={onCancel} disabled={busy}>
                Cancel
              </Button>
            )}
          </div>
          <div className="field-hint">
            <p>Popular authenticator apps:</p>
            <ul>
              {POPULAR_AUTHENTICATOR_APPS.map((app) => (
                <li key={app}>{app}</li>
              ))}
            </ul>
          </div>
        </form>
      )}

      {step.kind === 'done' && (
        <Alert tone="success" title="MFA Setup Complete!">
          <p>Your account is now protected with multi-factor authentication.</p>
          <p>{redirectText}</p>
        </Alert>
      )}
    </section>
  );
}

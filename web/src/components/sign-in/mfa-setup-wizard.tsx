import { useCallback, useEffect, useRef, useState } from 'react';
import { Alert } from '#web/components/alert.tsx';
import { Button } from '#web/components/button.tsx';
import { Spinner } from '#web/components/spinner.tsx';
import type { MfaSetupDriver } from '#web/lib/auth/types.ts';
import { POPULAR_AUTHENTICATOR_APPS } from '#web/lib/sign-in/popular-apps.ts';
import { useCodeEntry } from './use-code-entry.ts';
import { useStepHeading } from './use-step-heading.ts';
import { AuthenticatorKey } from './authenticator-key.tsx';
import { MfaCodeField } from './mfa-code-field.tsx';

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
  const [associateError, setAssociateError] = useState<string | null>(null);
  const entry = useCodeEntry(
    async (code) => {
      if (step.kind !== 'scan') return;
      await step.setup.verify(code);
      setStep({ kind: 'done' });
      onComplete();
    },
    () => messages.verifyFailed,
  );
  const error = associateError ?? entry.error;
  const started = useRef(false);
  // Each step (and the wizard replacing the previous screen) starts at the heading.
  const heading = useStepHeading(step.kind);
  const stepNumber = step.kind === 'done' ? 3 : step.kind === 'scan' ? 2 : 1;

  const associate = useCallback(async () => {
    setStep({ kind: 'associating' });
    setAssociateError(null);
    try {
      const setup = await driver();
      const secret = await setup.associate();
      setStep({ kind: 'scan', secret, setup });
    } catch {
      setAssociateError(messages.associateFailed);
      setStep({ kind: 'associateFailed' });
    }
  }, [driver, messages.associateFailed]);

  useEffect(() => {
    // One secret per wizard: a second association would replace the first.
    if (started.current) return;
    started.current = true;
    void associate();
  }, [associate]);

  return (
    <section className="stack" aria-labelledby="mfa-setup-title">
      <div>
        <h2 id="mfa-setup-title" ref={heading} tabIndex={-1} aria-describedby="mfa-setup-step">
          Set Up Multi-Factor Authentication
        </h2>
        <p className="text-muted" id="mfa-setup-step">
          Your account requires an authenticator app. Step {stepNumber} of 3.
        </p>
      </div>
      {error && <Alert tone="error">{error}</Alert>}

      {step.kind === 'associating' && <Spinner label="Setting up your MFA secret..." />}

      {step.kind === 'associateFailed' && (
        <div className="row">
          <Button onClick={() => void associate()}>Retry</Button>
          {onCancel && (
            <Button variant="secondary" onClick={onCancel}>
              Cancel
            </Button>
          )}
        </div>
      )}

      {step.kind === 'scan' && (
        <form className="stack" noValidate onSubmit={(event) => void entry.submit(event)}>
          <p>Open your authenticator app and scan this QR code, or enter the key below.</p>
          <AuthenticatorKey secret={step.secret} issuer={issuer} accountName={accountName} />
          <MfaCodeField label="Enter the 6-digit code from your app" {...entry.field} />
          <div className="row">
            <Button type="submit" disabled={!entry.ready || entry.busy}>
              {entry.busy ? 'Verifying...' : 'Verify & Complete Setup'}
            </Button>
            {onCancel && (
              <Button variant="secondary" onClick={onCancel} disabled={entry.busy}>
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

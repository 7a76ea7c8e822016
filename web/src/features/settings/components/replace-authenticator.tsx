import { useCallback, useEffect, useRef, useState } from 'react';
import { Alert } from '#web/components/alert.tsx';
import { Button } from '#web/components/button.tsx';
import { Card } from '#web/components/card.tsx';
import { Spinner } from '#web/components/spinner.tsx';
import type { MfaSetupDriver } from '#web/lib/auth/types.ts';
import { AuthenticatorKey } from '#web/components/sign-in/authenticator-key.tsx';
import { MfaCodeField } from '#web/components/sign-in/mfa-code-field.tsx';
import { useCodeEntry } from '#web/components/sign-in/use-code-entry.ts';
import { useStepHeading } from '#web/components/sign-in/use-step-heading.ts';
import { MFA_MESSAGES } from '../api/mfa.ts';

const REPLACE_TEXT = {
  title: 'Set up a new authenticator',
  scanStep: 'Step 1 of 2: Add the new key to your app',
  codeStep: 'Step 2 of 2: Enter a code from the new app',
  creatingKey: 'Creating a new key...',
  next: 'Next',
  back: 'Back',
  codeLabel: 'Code from your new authenticator app',
  verify: 'Verify New Authenticator',
  verifying: 'Verifying...',
  retry: 'Retry',
  cancel: 'Cancel',
} as const;

export interface ReplaceAuthenticatorProps {
  /** The MFA function's enrolment calls (they ask for a recent sign-in when needed). */
  readonly driver: () => MfaSetupDriver;
  readonly accountName: string;
  readonly issuer: string;
  /** The new authenticator is verified: the old one no longer works. */
  readonly onComplete: () => void;
  readonly onCancel: () => void;
}

type Step =
  | { readonly kind: 'creating' }
  | { readonly kind: 'createFailed'; readonly message: string }
  | { readonly kind: 'scan'; readonly secret: string; readonly setup: MfaSetupDriver }
  | { readonly kind: 'code'; readonly secret: string; readonly setup: MfaSetupDriver };

const failureText = (error: unknown, fallback: string) =>
  error instanceof Error && error.message ? error.message : fallback;

/**
 * Replacing a working authenticator, from the MFA page: 1 a new key (QR code or typed), 2 a
 * code from the new app. The current authenticator keeps working until step 2 succeeds;
 * afterwards the page shows its own confirmation.
 */
export function ReplaceAuthenticator({ driver, accountName, issuer, onComplete, onCancel }: ReplaceAuthenticatorProps) {
  const [step, setStep] = useState<Step>({ kind: 'creating' });
  const entry = useCodeEntry(
    async (code) => {
      if (step.kind !== 'code') return;
      await step.setup.verify(code);
      onComplete();
    },
    (failure) => failureText(failure, MFA_MESSAGES.wizardVerifyFailed),
  );
  const { busy } = entry;
  const started = useRef(false);
  const stepNumber = step.kind === 'code' ? 2 : 1;
  const heading = useStepHeading(stepNumber);

  const createKey = useCallback(async () => {
    setStep({ kind: 'creating' });
    try {
      const setup = driver();
      setStep({ kind: 'scan', secret: await setup.associate(), setup });
    } catch (failure) {
      setStep({ kind: 'createFailed', message: failureText(failure, MFA_MESSAGES.wizardAssociateFailed) });
    }
  }, [driver]);

  useEffect(() => {
    // One key per flow: a second association would replace the first.
    if (started.current) return;
    started.current = true;
    void createKey();
  }, [createKey]);

  const cancelButton = (
    <Button variant="secondary" onClick={onCancel} disabled={busy}>
      {REPLACE_TEXT.cancel}
    </Button>
  );

  return (
    <Card
      title={<span id="replace-authenticator-title">{REPLACE_TEXT.title}</span>}
      aria-labelledby="replace-authenticator-title"
    >
      <div className="stack">
        <h3 ref={heading} tabIndex={-1}>
          {stepNumber === 1 ? REPLACE_TEXT.scanStep : REPLACE_TEXT.codeStep}
        </h3>

        {step.kind === 'creating' && <Spinner label={REPLACE_TEXT.creatingKey} />}

        {step.kind === 'createFailed' && (
          <>
            <Alert tone="error">{step.message}</Alert>
            <div className="row">
              <Button onClick={() => void createKey()}>{REPLACE_TEXT.retry}</Button>
              {cancelButton}
            </div>
          </>
        )}

        {step.kind === 'scan' && (
          <>
            <p>{MFA_MESSAGES.replaceIntro}</p>
            <AuthenticatorKey secret={step.secret} issuer={issuer} accountName={accountName} />
            <div className="row">
              <Button onClick={() => setStep({ ...step, kind: 'code' })}>{REPLACE_TEXT.next}</Button>
              {cancelButton}
            </div>
          </>
        )}

        {step.kind === 'code' && (
          <form className="stack" noValidate onSubmit={(event) => void entry.submit(event)}>
            <p className="text-muted">Your current authenticator keeps working until this code is accepted.</p>
            {entry.error && <Alert tone="error">{entry.error}</Alert>}
            <MfaCodeField label={REPLACE_TEXT.codeLabel} {...entry.field} />
            <div className="row">
              <Button type="submit" disabled={!entry.ready || busy}>
                {busy ? REPLACE_TEXT.verifying : REPLACE_TEXT.verify}
              </Button>
              <Button variant="secondary" onClick={() => setStep({ ...step, kind: 'scan' })} disabled={busy}>
                {REPLACE_TEXT.back}
              </Button>
              {cancelButton}
            </div>
          </form>
        )}
      </div>
    </Card>
  );
}

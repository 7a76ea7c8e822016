import { lazy, Suspense, useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { useNavigate } from 'react-router';
import type { MfaStatus } from '#contracts/mfa.ts';
import { paths } from '#web/config/paths.ts';
import { Alert } from '#web/components/alert.tsx';
import { Button } from '#web/components/button.tsx';
import { Card } from '#web/components/card.tsx';
import { ConfirmDialog } from '#web/components/confirm-dialog.tsx';
import { Spinner } from '#web/components/spinner.tsx';
import { notify } from '#web/components/toaster.tsx';
import { useAuth } from '#web/lib/auth/auth-context.ts';
import { useReauthenticate } from '#web/lib/auth/reauthentication.ts';
import { useConfig } from '#web/lib/config-context.tsx';
import { useApiClient } from '#web/lib/use-clients.ts';
import { createMfaApi, MFA_MESSAGES } from '../api/mfa.ts';
import { MfaStatusCard } from '../components/mfa-status-card.tsx';
import { PasskeysCard } from '../components/passkeys-card.tsx';
import { ReauthenticateDialog } from '../components/reauthenticate-dialog.tsx';
import { RememberedDevicesCard } from '../components/remembered-devices-card.tsx';
import { ReplaceAuthenticator } from '../components/replace-authenticator.tsx';
import { SecurityInfoCard } from '../components/security-info-card.tsx';
import { SettingsLayout } from '../components/settings-layout.tsx';

const MfaSetupWizard = lazy(() => import('#web/components/sign-in/mfa-setup-wizard.tsx'));

/** After setup the wizard shows its last step this long before going to the dashboard. */
const SETUP_REDIRECT_DELAY_MS = 2_000;

type Load = { kind: 'loading' } | { kind: 'failed'; message: string } | { kind: 'loaded'; status: MfaStatus };

/** Enrolling a first authenticator (the wizard) or replacing the current one (its own flow). */
type Setup = 'enable' | 'replace';

/**
 * /mfa-settings: MFA status, devices, Enable (wizard), and either Set up a new authenticator
 * (where the pool requires MFA; it ends back here) or Disable (where it is optional); the
 * passkeys where the deployment has them on.
 */
export default function MfaSettingsPage() {
  const { productName, functions, rememberDevices, passkeys } = useConfig();
  const { session } = useAuth();
  const client = useApiClient();
  const reauthenticate = useReauthenticate();
  // Calls waiting for the answer to "sign in again?"; one dialog answers them all.
  const [identityChecks, setIdentityChecks] = useState<readonly ((confirmed: boolean) => void)[]>([]);
  const confirmIdentity = useCallback(
    () => new Promise<boolean>((resolve) => setIdentityChecks((waiting) => [...waiting, resolve])),
    [],
  );
  const api = useMemo(
    () => createMfaApi(client, functions.mfa, reauthenticate ? confirmIdentity : undefined),
    [client, functions.mfa, reauthenticate, confirmIdentity],
  );
  const [load, setLoad] = useState<Load>({ kind: 'loading' });
  const [generation, setGeneration] = useState(0);
  const [settingUp, setSettingUp] = useState<Setup | null>(null);
  const [confirming, setConfirming] = useState(false);
  const [disabling, setDisabling] = useState(false);
  const navigate = useNavigate();
  const redirectTimer = useRef<number | undefined>(undefined);
  // The confirmation after a replacement takes the focus the finished flow had.
  const [replaced, setReplaced] = useState(false);
  const confirmation = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (replaced) confirmation.current?.focus();
  }, [replaced]);

  useEffect(() => () => window.clearTimeout(redirectTimer.current), []);

  const reload = useCallback(() => {
    setLoad({ kind: 'loading' });
    setGeneration((n) => n + 1);
  }, []);

  useEffect(() => {
    let active = true;
    api.status().then(
      (status) => active && setLoad({ kind: 'loaded', status }),
      (error: unknown) => {
        console.error('Error loading MFA status:', error instanceof Error ? error.message : error);
        if (!active) return;
        const authRequired = error instanceof Error && error.message === MFA_MESSAGES.authRequired;
        setLoad({ kind: 'failed', message: authRequired ? MFA_MESSAGES.authRequired : MFA_MESSAGES.loadFailed });
      },
    );
    return () => {
      active = false;
    };
  }, [api, generation]);

  const driver = useCallback(async () => api.setupDriver(), [api]);

  const disable = async () => {
    setDisabling(true);
    try {
      await api.disable();
      notify.success(MFA_MESSAGES.disabled);
      setConfirming(false);
      reload();
    } catch (error) {
      notify.error(error instanceof Error ? error.message : MFA_MESSAGES.disableFailed);
    } finally {
      setDisabling(false);
    }
  };

  const setupComplete = () => {
    notify.success(MFA_MESSAGES.setupComplete);
    redirectTimer.current = window.setTimeout(() => navigate(paths.home), SETUP_REDIRECT_DELAY_MS);
  };

  const replaceComplete = () => {
    setSettingUp(null);
    setReplaced(true);
    reload();
  };

  const startReplacing = () => {
    setReplaced(false);
    setSettingUp('replace');
  };

  return (
    <SettingsLayout title="Multi-Factor Authentication" description="Protect your account with an authenticator app.">
      {load.kind === 'loading' && (
        <Card>
          <Spinner label="Loading MFA status..." />
        </Card>
      )}
      {load.kind === 'failed' && (
        <Alert tone="error" title={load.message}>
          <div>
            <Button variant="secondary" onClick={reload}>
              Retry
            </Button>
          </div>
        </Alert>
      )}
      {replaced && (
        <div ref={confirmation} tabIndex={-1}>
          <Alert tone="success">{MFA_MESSAGES.replaced}</Alert>
        </div>
      )}
      {load.kind === 'loaded' &&
        (settingUp === 'replace' ? (
          <ReplaceAuthenticator
            driver={api.setupDriver}
            accountName={session?.email ?? ''}
            issuer={productName}
            onComplete={replaceComplete}
            onCancel={() => setSettingUp(null)}
          />
        ) : settingUp === 'enable' ? (
          <Card>
            <Suspense fallback={<Spinner label="Setting up your MFA secret..." />}>
              <MfaSetupWizard
                driver={driver}
                accountName={session?.email ?? ''}
                issuer={productName}
                messages={{
                  associateFailed: MFA_MESSAGES.wizardAssociateFailed,
                  verifyFailed: MFA_MESSAGES.wizardVerifyFailed,
                }}
                onComplete={setupComplete}
                onCancel={() => setSettingUp(null)}
              />
            </Suspense>
          </Card>
        ) : (
          <MfaStatusCard
            status={load.status}
            onEnable={() => setSettingUp('enable')}
            onReplace={startReplacing}
            onDisable={() => setConfirming(true)}
          />
        ))}
      {passkeys && <PasskeysCard api={api.passkeys} confirmIdentity={reauthenticate ? confirmIdentity : undefined} />}
      {rememberDevices && <RememberedDevicesCard />}
      <SecurityInfoCard />
      {identityChecks.length > 0 && reauthenticate && (
        <ReauthenticateDialog
          email={session?.email ?? ''}
          reauthenticate={reauthenticate}
          onDone={(confirmed) => {
            setIdentityChecks([]);
            for (const answer of identityChecks) answer(confirmed);
          }}
        />
      )}
      <ConfirmDialog
        open={confirming}
        title="Disable MFA"
        confirmLabel="Disable MFA"
        busyLabel="Disabling..."
        busy={disabling}
        onConfirm={() => void disable()}
        onCancel={() => setConfirming(false)}
      >
        <p>{MFA_MESSAGES.disableConfirm}</p>
        <p className="text-muted">You will sign in with your password only until you enable MFA again.</p>
      </ConfirmDialog>
    </SettingsLayout>
  );
}

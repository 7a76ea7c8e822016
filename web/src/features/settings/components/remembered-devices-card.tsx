import { useCallback, useEffect, useState } from 'react';
import { Alert } from '#web/components/alert.tsx';
import { Button } from '#web/components/button.tsx';
import { Card } from '#web/components/card.tsx';
import { ConfirmDialog } from '#web/components/confirm-dialog.tsx';
import { Spinner } from '#web/components/spinner.tsx';
import { notify } from '#web/components/toaster.tsx';
import { useAuth } from '#web/lib/auth/auth-context.ts';
import type { RememberedDevice } from '#web/lib/auth/types.ts';
import { deviceName } from '../device-name.ts';

const DEVICE_MESSAGES = {
  loadFailed: 'Failed to load remembered devices',
  forgetFailed: 'Failed to forget the device',
  // Its session was bound to the device: it ends at its next refresh (within the 5 minutes an access token lasts).
  forgotten:
    'The device was forgotten: it is signed out within 5 minutes and will be asked for a code at its next sign-in.',
  forgetThisTitle: 'Forget this device?',
  forgetThisWarning:
    'This browser will be signed out at once. The next sign-in here will ask for a code from your authenticator app.',
  forgetThisConfirm: 'Forget and sign out',
  none: 'No device is remembered. When you sign in with a code, tick Remember this device to skip the code there next time.',
} as const;

type Load = { kind: 'loading' } | { kind: 'failed' } | { kind: 'loaded'; devices: readonly RememberedDevice[] };

const lastUsedFormat = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short' });

/**
 * The devices that skip the code at sign-in, named by browser and system (the reported user
 * agent in full on hover), with their last use and Forget for each (this one and others).
 * Forgetting this browser's own device warns first that it signs this browser out, then does
 * (the sign-in page says why).
 */
export function RememberedDevicesCard() {
  const auth = useAuth();
  const [load, setLoad] = useState<Load>({ kind: 'loading' });
  const [generation, setGeneration] = useState(0);
  const [forgetting, setForgetting] = useState<string | null>(null);
  const [confirmingThis, setConfirmingThis] = useState<RememberedDevice | null>(null);
  const { listDevices } = auth;

  const refresh = useCallback(() => {
    setLoad({ kind: 'loading' });
    setGeneration((n) => n + 1);
  }, []);

  useEffect(() => {
    let active = true;
    listDevices().then(
      (devices) => active && setLoad({ kind: 'loaded', devices: devices.filter((device) => device.remembered) }),
      (error: unknown) => {
        console.error('Error loading remembered devices:', error instanceof Error ? error.message : error);
        if (active) setLoad({ kind: 'failed' });
      },
    );
    return () => {
      active = false;
    };
  }, [listDevices, generation]);

  const forget = async (device: RememberedDevice) => {
    setForgetting(device.key);
    try {
      await auth.forgetDevice(device.key);
      // This browser is signed out by now and on its way to the sign-in page, which says why.
      if (device.current) return;
      notify.success(DEVICE_MESSAGES.forgotten);
      refresh();
    } catch (error) {
      console.error('Error forgetting a device:', error instanceof Error ? error.message : error);
      notify.error(DEVICE_MESSAGES.forgetFailed);
    } finally {
      setForgetting(null);
      setConfirmingThis(null);
    }
  };

  return (
    <Card title="Remembered devices">
      <p className="text-muted">Sign-ins from a remembered device ask for the password only.</p>
      {load.kind === 'loading' && <Spinner label="Loading remembered devices..." />}
      {load.kind === 'failed' && (
        <Alert tone="error" title={DEVICE_MESSAGES.loadFailed}>
          <div>
            <Button variant="secondary" onClick={refresh}>
              Retry
            </Button>
          </div>
        </Alert>
      )}
      {load.kind === 'loaded' &&
        (load.devices.length === 0 ? (
          <p>{DEVICE_MESSAGES.none}</p>
        ) : (
          <ul className="stack" aria-label="Remembered devices">
            {load.devices.map((device) => (
              <li key={device.key} className="row">
                <div>
                  <strong title={device.name}>{deviceName(device.name)}</strong>
                  {device.current && <span className="text-muted"> (this device)</span>}
                  <div className="text-muted">
                    Last used {device.lastUsed > 0 ? lastUsedFormat.format(new Date(device.lastUsed)) : 'never'}
                  </div>
                </div>
                <Button
                  variant="secondary"
                  size="sm"
                  onClick={() => (device.current ? setConfirmingThis(device) : void forget(device))}
                  disabled={forgetting !== null}
                  aria-label={`Forget ${device.current ? 'this device' : deviceName(device.name)}`}
                >
                  {forgetting === device.key ? 'Forgetting...' : 'Forget'}
                </Button>
              </li>
            ))}
          </ul>
        ))}
      <ConfirmDialog
        open={confirmingThis !== null}
        title={DEVICE_MESSAGES.forgetThisTitle}
        confirmLabel={DEVICE_MESSAGES.forgetThisConfirm}
        busyLabel="Forgetting..."
        busy={forgetting !== null}
        onConfirm={() => confirmingThis && void forget(confirmingThis)}
        onCancel={() => setConfirmingThis(null)}
      >
        <p>{DEVICE_MESSAGES.forgetThisWarning}</p>
      </ConfirmDialog>
    </Card>
  );
}

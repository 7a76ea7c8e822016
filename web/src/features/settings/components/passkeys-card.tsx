import { useCallback, useEffect, useId, useState } from 'react';
import {
  MAX_PASSKEYS,
  PASSKEY_ADDED_MESSAGE,
  PASSKEY_REMOVED_MESSAGE,
  type Passkey,
  type PasskeyList,
} from '#contracts/passkeys.ts';
import { Alert } from '#web/components/alert.tsx';
import { Badge } from '#web/components/badge.tsx';
import { Button } from '#web/components/button.tsx';
import { Card } from '#web/components/card.tsx';
import { ConfirmDialog } from '#web/components/confirm-dialog.tsx';
import { Spinner } from '#web/components/spinner.tsx';
import { notify } from '#web/components/toaster.tsx';
import { localDate } from '#web/lib/dates.ts';
import { MFA_MESSAGES, type ConfirmIdentity, type PasskeyApi } from '../api/mfa.ts';

const PASSKEY_TEXTS = {
  title: 'Passkeys',
  intro:
    "Sign in with your device's fingerprint, face or screen lock instead of a code. Your authenticator app stays as the backup.",
  none: 'No passkeys yet.',
  countsAsMfa: 'Counts as MFA',
  add: 'Add a passkey',
  adding: 'Adding...',
  remove: 'Remove',
  removing: 'Removing...',
  removeTitle: 'Remove passkey?',
  removeConfirm: 'Remove passkey',
  notUsed: 'Not used yet',
  atLimit: `You have ${MAX_PASSKEYS} passkeys, the most an account can hold. Remove one to add another.`,
} as const;

type Load = { kind: 'loading' } | { kind: 'failed'; message: string } | { kind: 'loaded'; list: PasskeyList };

/** What the card is doing: adding a passkey, or removing the one with this credential id. */
type Busy = { kind: 'add' } | { kind: 'remove'; credentialId: string } | null;

/** Only loaded once a passkey is added, like at sign-in. */
const loadCeremony = () => import('#web/lib/auth/passkey-ceremony.ts');

const errorText = (error: unknown, fallback: string) => (error instanceof Error && error.message) || fallback;

export interface PasskeysCardProps {
  readonly api: PasskeyApi;
  /**
   * Signs the person in again (password and current code); resolves false if they decline.
   * Asked before every change, however recent the session. Without it the function's own
   * recent sign-in check applies.
   */
  readonly confirmIdentity?: ConfirmIdentity;
}

/**
 * The caller's passkeys, each with when it was added and last used, Remove for each and Add a
 * passkey. Removing first asks to confirm, naming the passkey; then both changes ask for the
 * password and a current code before anything is sent. A failure (the device's or the
 * function's) stays in the card.
 */
export function PasskeysCard({ api, confirmIdentity }: PasskeysCardProps) {
  const titleId = useId();
  const [load, setLoad] = useState<Load>({ kind: 'loading' });
  const [generation, setGeneration] = useState(0);
  const [busy, setBusy] = useState<Busy>(null);
  const [failure, setFailure] = useState<string | null>(null);
  const [confirmingRemoval, setConfirmingRemoval] = useState<Passkey | null>(null);

  const reload = useCallback(() => {
    setLoad({ kind: 'loading' });
    setGeneration((n) => n + 1);
  }, []);

  useEffect(() => {
    let active = true;
    api.list().then(
      (list) => active && setLoad({ kind: 'loaded', list }),
      (error: unknown) => {
        console.error('Error loading passkeys:', error instanceof Error ? error.message : error);
        if (active) setLoad({ kind: 'failed', message: errorText(error, MFA_MESSAGES.passkeysLoadFailed) });
      },
    );
    return () => {
      active = false;
    };
  }, [api, generation]);

  const identityConfirmed = async () => (confirmIdentity ? confirmIdentity() : true);

  const add = async () => {
    setFailure(null);
    if (!(await identityConfirmed())) return;
    setBusy({ kind: 'add' });
    try {
      const options = await api.startRegistration();
      const { createPasskey } = await loadCeremony();
      const credential = await createPasskey(options);
      const list = await api.completeRegistration(credential);
      setLoad({ kind: 'loaded', list });
      notify.success(list.message ?? PASSKEY_ADDED_MESSAGE);
    } catch (error) {
      console.error('Error adding a passkey:', error instanceof Error ? error.message : error);
      setFailure(errorText(error, MFA_MESSAGES.passkeyAddFailed));
    } finally {
      setBusy(null);
    }
  };

  const remove = async (passkey: Passkey) => {
    setConfirmingRemoval(null);
    setFailure(null);
    if (!(await identityConfirmed())) return;
    setBusy({ kind: 'remove', credentialId: passkey.credentialId });
    try {
      const list = await api.remove(passkey.credentialId);
      setLoad({ kind: 'loaded', list });
      notify.success(list.message ?? PASSKEY_REMOVED_MESSAGE);
    } catch (error) {
      console.error('Error removing a passkey:', error instanceof Error ? error.message : error);
      setFailure(errorText(error, MFA_MESSAGES.passkeyRemoveFailed));
    } finally {
      setBusy(null);
    }
  };

  const passkeys = load.kind === 'loaded' ? load.list.passkeys : [];
  const atLimit = passkeys.length >= MAX_PASSKEYS;

  return (
    <Card
      title={<span id={titleId}>{PASSKEY_TEXTS.title}</span>}
      aria-labelledby={titleId}
      actions={
        load.kind === 'loaded' && load.list.passkeyMfa ? (
          <Badge tone="success">{PASSKEY_TEXTS.countsAsMfa}</Badge>
        ) : null
      }
    >
      <div className="stack">
        <p className="text-muted">{PASSKEY_TEXTS.intro}</p>
        {failure && <Alert tone="error">{failure}</Alert>}
        {load.kind === 'loading' && <Spinner label="Loading passkeys..." />}
        {load.kind === 'failed' && (
          <Alert tone="error" title={load.message}>
            <div>
              <Button variant="secondary" onClick={reload}>
                Retry
              </Button>
            </div>
          </Alert>
        )}
        {load.kind === 'loaded' && (
          <>
            {passkeys.length === 0 ? (
              <p>{PASSKEY_TEXTS.none}</p>
            ) : (
              <ul className="stack" aria-label={PASSKEY_TEXTS.title}>
                {passkeys.map((passkey) => (
                  <li key={passkey.credentialId} className="row" style={{ justifyContent: 'space-between' }}>
                    <div>
                      <strong>{passkey.name}</strong>
                      <div className="text-muted">Added {localDate(passkey.createdAt)}</div>
                      <div className="text-muted">
                        {passkey.lastUsedAt === undefined
                          ? PASSKEY_TEXTS.notUsed
                          : `Last used ${localDate(passkey.lastUsedAt)}`}
                      </div>
                    </div>
                    <Button
                      variant="secondary"
                      size="sm"
                      onClick={() => setConfirmingRemoval(passkey)}
                      disabled={busy !== null}
                      aria-label={`${PASSKEY_TEXTS.remove} ${passkey.name}`}
                    >
                      {busy?.kind === 'remove' && busy.credentialId === passkey.credentialId
                        ? PASSKEY_TEXTS.removing
                        : PASSKEY_TEXTS.remove}
                    </Button>
                  </li>
                ))}
              </ul>
            )}
            {atLimit && <p className="text-muted">{PASSKEY_TEXTS.atLimit}</p>}
            <div>
              <Button onClick={() => void add()} disabled={busy !== null || atLimit}>
                {busy?.kind === 'add' ? PASSKEY_TEXTS.adding : PASSKEY_TEXTS.add}
              </Button>
            </div>
          </>
        )}
      </div>
      <ConfirmDialog
        open={confirmingRemoval !== null}
        title={PASSKEY_TEXTS.removeTitle}
        confirmLabel={PASSKEY_TEXTS.removeConfirm}
        onConfirm={() => confirmingRemoval && void remove(confirmingRemoval)}
        onCancel={() => setConfirmingRemoval(null)}
      >
        <p>
          Remove the passkey <strong>{confirmingRemoval?.name}</strong>? You can no longer sign in with it; your
          authenticator app and your other passkeys keep working.
        </p>
      </ConfirmDialog>
    </Card>
  );
}

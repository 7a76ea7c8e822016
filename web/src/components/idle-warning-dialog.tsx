import { useEffect, useId, useState } from 'react';
import { Button } from './button.tsx';
import { Modal } from './modal.tsx';

export interface IdleWarningDialogProps {
  /** Epoch ms of the idle sign-out; the dialog is closed while null. */
  readonly deadline: number | null;
  readonly onStay: () => void;
  readonly onSignOut: () => void;
}

const secondsUntil = (deadline: number) => Math.max(0, Math.ceil((deadline - Date.now()) / 1000));

function Countdown({ deadline }: { readonly deadline: number }) {
  const [seconds, setSeconds] = useState(() => secondsUntil(deadline));
  useEffect(() => {
    const tick = setInterval(() => setSeconds(secondsUntil(deadline)), 1000);
    return () => clearInterval(tick);
  }, [deadline]);
  return <>{seconds === 1 ? '1 second' : `${seconds} seconds`}</>;
}

/**
 * Warns before the idle sign-out. "Stay signed in" has the focus, so Enter keeps the session;
 * Escape and the backdrop keep it too.
 */
export function IdleWarningDialog({ deadline, onStay, onSignOut }: IdleWarningDialogProps) {
  const descriptionId = useId();
  return (
    <Modal
      open={deadline !== null}
      title="Your session is about to end"
      onClose={onStay}
      role="alertdialog"
      descriptionId={descriptionId}
      footer={
        <>
          <Button variant="secondary" onClick={onSignOut}>
            Sign out now
          </Button>
          <Button onClick={onStay} data-autofocus>
            Stay signed in
          </Button>
        </>
      }
    >
      {deadline !== null && (
        <p id={descriptionId}>
          There has been no activity for a while. You will be signed out in{' '}
          <Countdown key={deadline} deadline={deadline} />.
        </p>
      )}
    </Modal>
  );
}

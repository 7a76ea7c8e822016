import type { ReactNode } from 'react';
import { ConfirmDialog } from '#web/components/confirm-dialog.tsx';
import { notify } from '#web/components/toaster.tsx';
import { useServerCall } from '#web/lib/use-server-call.ts';
import { actionFailure, type Failure } from '../errors.ts';
import { FailureAlert } from './failure-alert.tsx';

export interface DeleteConfirmationProps {
  readonly open: boolean;
  readonly title: string;
  /** What a refused deletion is called (one of ADMIN_FAILURES). */
  readonly failureTitle: string;
  /** Deletes; resolves to the server's answer, whose message is shown. */
  readonly onDelete: () => Promise<{ readonly message: string }>;
  readonly onDeleted: () => void;
  readonly onClose: () => void;
  /** What is deleted and what goes with it. */
  readonly children: ReactNode;
  /** The confirming button's text; "Delete" unless given. */
  readonly confirmLabel?: string;
  /** The confirming button's text while the deletion runs; "Deleting..." unless given. */
  readonly busyLabel?: string;
  /** The dismissing button's text; the confirm dialog's own ("Cancel") unless given. */
  readonly cancelLabel?: string;
}

/**
 * Asks before a deletion (or, with its own labels, a cancellation), runs it, and on a refusal
 * stays open with the server's reason (for example a company that still has users), so the
 * admin reads why before trying again.
 */
export function DeleteConfirmation({
  open,
  title,
  failureTitle,
  onDelete,
  onDeleted,
  onClose,
  children,
  confirmLabel = 'Delete',
  busyLabel = 'Deleting...',
  cancelLabel,
}: DeleteConfirmationProps) {
  const call = useServerCall<'delete', Failure>();

  const close = () => {
    call.setFailure(null);
    onClose();
  };

  const remove = () =>
    call.run(
      'delete',
      async () => {
        const { message } = await onDelete();
        notify.success(message);
        onDeleted();
      },
      { failure: (error) => actionFailure(failureTitle, error) },
    );

  return (
    <ConfirmDialog
      open={open}
      title={title}
      confirmLabel={confirmLabel}
      busyLabel={busyLabel}
      cancelLabel={cancelLabel}
      busy={call.busy}
      onConfirm={() => void remove()}
      onCancel={close}
    >
      {open && (
        <div className="stack">
          {call.failure && <FailureAlert failure={call.failure} onDismiss={() => call.setFailure(null)} />}
          {children}
        </div>
      )}
    </ConfirmDialog>
  );
}

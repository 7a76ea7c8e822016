import type { AdminSubscription } from '#contracts/admin-subscriptions.ts';
import { ConfirmDialog } from '#web/components/confirm-dialog.tsx';
import { notify } from '#web/components/toaster.tsx';
import { useServerCall } from '#web/lib/use-server-call.ts';
import { useAdminApi } from '../api/admin-api-context.tsx';
import { dashboardLabel, DELIVERIES_TEXTS } from '../deliveries.ts';
import { actionFailure, ADMIN_FAILURES, type Failure } from '../errors.ts';
import { FailureAlert } from './failure-alert.tsx';

export interface CancelSubscriptionDialogProps {
  readonly subscription: AdminSubscription | null;
  readonly onClose: () => void;
  readonly onCanceled: (subscription: AdminSubscription) => void;
}

/**
 * Asks before canceling a subscription, naming its recipient and dashboard, then cancels it; a
 * refusal (e.g. one canceled meanwhile) keeps the dialog open with the server's reason.
 */
export function CancelSubscriptionDialog({ subscription, onClose, onCanceled }: CancelSubscriptionDialogProps) {
  const api = useAdminApi();
  const call = useServerCall<'cancel', Failure>();

  const close = () => {
    call.setFailure(null);
    onClose();
  };

  const cancel = (target: AdminSubscription) =>
    call.run(
      'cancel',
      async () => {
        const { message } = await api.quicksight.cancelSubscription(target.id);
        notify.success(message);
        onCanceled(target);
      },
      { failure: (error) => actionFailure(ADMIN_FAILURES.cancelSubscription, error) },
    );

  return (
    <ConfirmDialog
      open={subscription !== null}
      title={DELIVERIES_TEXTS.cancel}
      confirmLabel={DELIVERIES_TEXTS.cancel}
      busyLabel={DELIVERIES_TEXTS.canceling}
      cancelLabel={DELIVERIES_TEXTS.keep}
      busy={call.busy}
      onConfirm={() => {
        if (subscription) void cancel(subscription);
      }}
      onCancel={close}
    >
      {subscription && (
        <div className="stack">
          {call.failure && <FailureAlert failure={call.failure} onDismiss={() => call.setFailure(null)} />}
          <p>
            Cancel the subscription of <strong>{subscription.email}</strong> to{' '}
            <strong>{dashboardLabel(subscription)}</strong>? No more files of it are sent to them. They can subscribe
            again from the dashboard.
          </p>
        </div>
      )}
    </ConfirmDialog>
  );
}

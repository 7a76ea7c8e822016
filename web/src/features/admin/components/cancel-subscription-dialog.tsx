import type { AdminSubscription } from '#contracts/admin-subscriptions.ts';
import { subscriptionName } from '#contracts/subscriptions.ts';
import { useAdminApi } from '../api/admin-api-context.tsx';
import { DELIVERIES_TEXTS } from '../deliveries.ts';
import { ADMIN_FAILURES } from '../errors.ts';
import { DeleteConfirmation } from './delete-confirmation.tsx';

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
  return (
    <DeleteConfirmation
      open={subscription !== null}
      title={DELIVERIES_TEXTS.cancel}
      confirmLabel={DELIVERIES_TEXTS.cancel}
      busyLabel={DELIVERIES_TEXTS.canceling}
      cancelLabel={DELIVERIES_TEXTS.keep}
      failureTitle={ADMIN_FAILURES.cancelSubscription}
      onDelete={() => api.quicksight.cancelSubscription(subscription!.id)}
      onDeleted={() => onCanceled(subscription!)}
      onClose={onClose}
    >
      {subscription && (
        <p>
          Cancel the subscription of <strong>{subscription.email}</strong> to{' '}
          <strong>{subscriptionName(subscription)}</strong>? No more files of it are sent to them. They can subscribe
          again from the dashboard.
        </p>
      )}
    </DeleteConfirmation>
  );
}

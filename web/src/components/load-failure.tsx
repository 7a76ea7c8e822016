import { Alert } from './alert.tsx';
import { Button } from './button.tsx';

export interface LoadFailureProps {
  /** What could not be loaded (the screen's failure text). */
  readonly title: string;
  /** The reason the server or the network gave, when it adds something. */
  readonly detail?: string;
  readonly onRetry: () => void;
  /** A retry is under way: the button says so and waits. */
  readonly retrying?: boolean;
}

const RETRY_LABEL = 'Retry';

/**
 * A list that could not be loaded: what failed, why, and Retry, in place of the list (or above
 * the rows already shown), so a failure never reads as an empty list. Announced at once.
 */
export function LoadFailure({ title, detail, onRetry, retrying = false }: LoadFailureProps) {
  return (
    <Alert tone="error" title={title} className="load-failure">
      {detail && detail !== title && <p>{detail}</p>}
      <div>
        <Button variant="secondary" size="sm" onClick={onRetry} disabled={retrying}>
          {retrying ? 'Retrying...' : RETRY_LABEL}
        </Button>
      </div>
    </Alert>
  );
}

import { Alert } from '#web/components/alert.tsx';
import { Button } from '#web/components/button.tsx';
import type { Failure } from '../errors.ts';

/** A dismissible error box for a failed action on a page. */
export function FailureAlert({ failure, onDismiss }: { readonly failure: Failure; readonly onDismiss: () => void }) {
  return (
    <Alert tone="error" title={failure.title}>
      {failure.lines.map((line, index) => (
        <p key={index}>{line}</p>
      ))}
      <div>
        <Button size="sm" variant="secondary" onClick={onDismiss}>
          Dismiss
        </Button>
      </div>
    </Alert>
  );
}

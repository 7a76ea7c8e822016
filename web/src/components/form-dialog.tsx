import { useId, type FormEvent, type ReactNode } from 'react';
import { Button } from '#web/components/button.tsx';
import { Modal } from '#web/components/modal.tsx';

export interface FormDialogProps {
  readonly title: string;
  readonly onClose: () => void;
  readonly onSubmit: (event: FormEvent<HTMLFormElement>) => void;
  /** While busy, the buttons are disabled and the dialog cannot be dismissed. */
  readonly busy: boolean;
  readonly submitLabel: string;
  readonly busyLabel: string;
  readonly submitDisabled?: boolean;
  readonly wide?: boolean;
  readonly children: ReactNode;
}

/** A dialog holding one form, with Cancel and the submit button in its footer. */
export function FormDialog({
  title,
  onClose,
  onSubmit,
  busy,
  submitLabel,
  busyLabel,
  submitDisabled = false,
  wide,
  children,
}: FormDialogProps) {
  const formId = useId();
  return (
    <Modal
      open
      title={title}
      onClose={onClose}
      busy={busy}
      {...(wide ? { wide } : {})}
      footer={
        <>
          <Button variant="secondary" onClick={onClose} disabled={busy}>
            Cancel
          </Button>
          <Button type="submit" form={formId} disabled={busy || submitDisabled}>
            {busy ? busyLabel : submitLabel}
          </Button>
        </>
      }
    >
      <form id={formId} className="stack" noValidate onSubmit={onSubmit}>
        {children}
      </form>
    </Modal>
  );
}

import { Button, type ButtonProps } from '../../../components/button.tsx';
import { Tooltip } from '../../../components/tooltip.tsx';

export interface GuardedButtonProps extends ButtonProps {
  /** Why the action is not allowed; the button is then disabled and explains itself. */
  readonly blockedReason: string | null;
}

/**
 * A button that, when the action is not allowed, stays focusable but inert
 * (aria-disabled) so that the reason can be read on hover and on keyboard focus.
 */
export function GuardedButton({ blockedReason, onClick, disabled, ...rest }: GuardedButtonProps) {
  if (blockedReason === null) return <Button onClick={onClick} disabled={disabled} {...rest} />;
  return (
    <Tooltip content={blockedReason}>
      <Button {...rest} aria-disabled="true" onClick={(event) => event.preventDefault()} />
    </Tooltip>
  );
}

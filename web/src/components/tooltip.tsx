import { useId, useState, type ReactElement, type ReactNode } from 'react';
import { cloneElement } from 'react';

export interface TooltipProps {
  readonly content: string;
  /** One focusable element; it is described by the tooltip. */
  readonly children: ReactElement<{ 'aria-describedby'?: string }>;
}

/** Shows on hover and on keyboard focus; Escape hides it. */
export function Tooltip({ content, children }: TooltipProps): ReactNode {
  const id = useId();
  const [visible, setVisible] = useState(false);
  return (
    <span
      className="tooltip-anchor"
      onMouseEnter={() => setVisible(true)}
      onMouseLeave={() => setVisible(false)}
      onFocus={() => setVisible(true)}
      onBlur={() => setVisible(false)}
      onKeyDown={(event) => {
        if (event.key === 'Escape') setVisible(false);
      }}
    >
      {cloneElement(children, { 'aria-describedby': id })}
      <span id={id} role="tooltip" className="tooltip" hidden={!visible}>
        {content}
      </span>
    </span>
  );
}

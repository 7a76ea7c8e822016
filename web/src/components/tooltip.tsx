import { cloneElement, useCallback, useId, useState, type ReactElement, type ReactNode } from 'react';
import { FloatingLayer, useAnchoredLayer } from './floating-layer.tsx';

export interface TooltipProps {
  readonly content: string;
  /** One focusable element; it is described by the tooltip. */
  readonly children: ReactElement<{ 'aria-describedby'?: string }>;
}

/**
 * Shows on hover and on keyboard focus; Escape hides it. It floats above every container
 * (see FloatingLayer), positioned only while shown.
 */
export function Tooltip({ content, children }: TooltipProps): ReactNode {
  const id = useId();
  const [visible, setVisible] = useState(false);
  // State, not a ref: the layer is rendered once the anchor is in the page.
  const [anchor, setAnchor] = useState<HTMLSpanElement | null>(null);
  const { refs, floatingStyles } = useAnchoredLayer({ open: visible, placement: 'top' });
  const { setReference, setFloating } = refs;
  const anchorRef = useCallback(
    (element: HTMLSpanElement | null) => {
      setAnchor(element);
      setReference(element);
    },
    [setReference],
  );
  return (
    <span
      ref={anchorRef}
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
      <FloatingLayer anchor={anchor}>
        <span
          ref={visible ? setFloating : undefined}
          id={id}
          role="tooltip"
          className="tooltip"
          style={floatingStyles}
          hidden={!visible}
        >
          {content}
        </span>
      </FloatingLayer>
    </span>
  );
}

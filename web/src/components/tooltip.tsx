import { cloneElement, useCallback, useId, useRef, useState, type ReactElement, type ReactNode } from 'react';
import { FloatingLayer, useAnchoredLayer } from './floating-layer.tsx';

export interface TooltipProps {
  readonly content: string;
  /** One focusable element; it is described by the tooltip. */
  readonly children: ReactElement<{ 'aria-describedby'?: string }>;
}

/**
 * Shows on hover with a mouse and on keyboard focus; Escape hides it. A tap (touch or pen) does
 * not open it: nothing would close it again until the next tap elsewhere. It floats above every
 * container (see FloatingLayer), positioned only while shown.
 */
export function Tooltip({ content, children }: TooltipProps): ReactNode {
  const id = useId();
  const [visible, setVisible] = useState(false);
  // The focus a tap gives the element is not a keyboard's: it shows nothing.
  const tapped = useRef(false);
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
      onPointerEnter={(event) => event.pointerType === 'mouse' && setVisible(true)}
      onPointerLeave={() => setVisible(false)}
      onPointerDown={(event) => {
        tapped.current = event.pointerType !== 'mouse';
        if (tapped.current) setVisible(false);
      }}
      onFocus={() => {
        if (!tapped.current) setVisible(true);
        tapped.current = false;
      }}
      onBlur={() => {
        tapped.current = false;
        setVisible(false);
      }}
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

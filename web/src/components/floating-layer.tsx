import {
  autoUpdate,
  flip,
  offset,
  shift,
  size,
  useFloating,
  type Placement,
  type ReferenceType,
} from '@floating-ui/react-dom';
import { useCallback, useEffect, useRef, type ReactNode } from 'react';
import { createPortal } from 'react-dom';

/** Room kept between a floating element and the edges of the window. */
const EDGE_PADDING = 8;

export interface AnchoredLayerOptions {
  readonly open: boolean;
  /** @default 'bottom-start' */
  readonly placement?: Placement;
  /** At least as wide as the anchor (a dropdown under its button). */
  readonly matchWidth?: boolean;
  /** Distance from the anchor in pixels. @default 6 */
  readonly gap?: number;
}

/**
 * Positions a popover, menu or tooltip next to its anchor with fixed positioning, so no
 * scrolling or clipping container (a table, a card, a dialog) cuts it off: it flips to the
 * other side when there is no room, stays inside the window and shrinks to the space left
 * (its content scrolls then). Follows the anchor while open.
 */
export function useAnchoredLayer({
  open,
  placement = 'bottom-start',
  matchWidth = false,
  gap = 6,
}: AnchoredLayerOptions) {
  return useFloating({
    open,
    placement,
    strategy: 'fixed',
    whileElementsMounted: autoUpdate,
    middleware: [
      offset(gap),
      flip({ padding: EDGE_PADDING }),
      shift({ padding: EDGE_PADDING }),
      size({
        padding: EDGE_PADDING,
        apply({ availableHeight, availableWidth, rects, elements }) {
          Object.assign(elements.floating.style, {
            maxHeight: `${Math.max(0, Math.floor(availableHeight))}px`,
            maxWidth: `${Math.max(0, Math.floor(availableWidth))}px`,
            minWidth: matchWidth ? `${Math.round(rects.reference.width)}px` : '',
          });
        },
      }),
    ],
  });
}

/**
 * Where floating elements are rendered: at the end of the modal dialog that holds their
 * anchor (so they stay inside its focus trap and its aria-modal content), else at the end of
 * the page. Fixed positioning takes them out of every scrolling container on the way.
 */
export function FloatingLayer({
  anchor,
  children,
}: {
  readonly anchor: ReferenceType | null;
  readonly children: ReactNode;
}) {
  if (!(anchor instanceof Element)) return null;
  const host = anchor.closest('[aria-modal="true"]') ?? document.body;
  return createPortal(children, host);
}

/**
 * A popover opened by a button: the anchored layer, a callback ref for the button that also
 * keeps it at hand (to give focus back), and a press anywhere outside both closing it.
 */
export function useAnchoredPopover<Anchor extends HTMLElement>({
  onDismiss,
  ...options
}: AnchoredLayerOptions & { readonly onDismiss: () => void }) {
  const layer = useAnchoredLayer(options);
  const anchor = useRef<Anchor | null>(null);
  const { setReference, floating } = layer.refs;
  const anchorRef = useCallback(
    (element: Anchor | null) => {
      anchor.current = element;
      setReference(element);
    },
    [setReference],
  );
  const dismiss = useRef(onDismiss);
  useEffect(() => {
    dismiss.current = onDismiss;
  });

  useEffect(() => {
    if (!options.open) return;
    const onPointerDown = (event: PointerEvent) => {
      const target = event.target as Node;
      if (!anchor.current?.contains(target) && !floating.current?.contains(target)) dismiss.current();
    };
    document.addEventListener('pointerdown', onPointerDown);
    return () => document.removeEventListener('pointerdown', onPointerDown);
  }, [options.open, floating]);

  return { ...layer, anchor, anchorRef };
}

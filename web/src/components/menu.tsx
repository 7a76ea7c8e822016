import type { Placement } from '@floating-ui/react-dom';
import { useEffect, useId, useRef, useState, type KeyboardEvent, type ReactNode } from 'react';
import { cx } from './class-names.ts';
import { FloatingLayer, useAnchoredPopover } from './floating-layer.tsx';

export interface MenuItem {
  readonly label: string;
  readonly onSelect?: () => void;
  /** Deletes or takes something away: shown in the danger colour. */
  readonly destructive?: boolean;
  /** The item cannot be chosen now. */
  readonly disabled?: boolean;
  /** Why it cannot be chosen: the item is then disabled and shows the reason under its label. */
  readonly disabledReason?: string | null;
}

export interface MenuProps {
  /** Content of the button that opens the menu. */
  readonly trigger: ReactNode;
  /** Accessible name of that button. */
  readonly label: string;
  readonly items: readonly MenuItem[];
  /** Shown above the items (not focusable). */
  readonly header?: ReactNode;
  readonly triggerClassName?: string;
  /** @default 'bottom-end' */
  readonly placement?: Placement;
}

const isDisabled = (item: MenuItem) => Boolean(item.disabled || item.disabledReason);

/**
 * A menu button: Enter, Space or ArrowDown opens it on the first item; arrows, Home and End
 * move; Escape or Tab closes it; Escape returns focus to the button. The menu floats above
 * every container (see FloatingLayer), so a table or a dialog never cuts it off.
 */
export function Menu({ trigger, label, items, header, triggerClassName, placement = 'bottom-end' }: MenuProps) {
  const [open, setOpen] = useState(false);
  const menuId = useId();
  const itemRefs = useRef<(HTMLButtonElement | null)[]>([]);
  const [focusIndex, setFocusIndex] = useState(0);
  const {
    floatingStyles,
    elements,
    refs,
    anchor: buttonRef,
    anchorRef: buttonCallbackRef,
  } = useAnchoredPopover<HTMLButtonElement>({
    open,
    placement,
    onDismiss: () => setOpen(false),
  });
  const { setFloating } = refs;

  useEffect(() => {
    if (open) itemRefs.current[focusIndex]?.focus({ preventScroll: true });
  }, [open, focusIndex]);

  const openAt = (index: number) => {
    setFocusIndex(index);
    setOpen(true);
  };

  const close = (returnFocus: boolean) => {
    setOpen(false);
    if (returnFocus) buttonRef.current?.focus();
  };

  const onButtonKeyDown = (event: KeyboardEvent<HTMLButtonElement>) => {
    if (event.key === 'ArrowDown' || event.key === 'ArrowUp') {
      event.preventDefault();
      openAt(event.key === 'ArrowDown' ? 0 : items.length - 1);
    }
  };

  const onMenuKeyDown = (event: KeyboardEvent<HTMLUListElement>) => {
    const last = items.length - 1;
    const moves: Record<string, number> = {
      ArrowDown: focusIndex >= last ? 0 : focusIndex + 1,
      ArrowUp: focusIndex <= 0 ? last : focusIndex - 1,
      Home: 0,
      End: last,
    };
    const next = moves[event.key];
    if (next !== undefined) {
      event.preventDefault();
      setFocusIndex(next);
    } else if (event.key === 'Escape') {
      // A menu inside a dialog closes alone; the dialog stays.
      event.preventDefault();
      event.stopPropagation();
      close(true);
    } else if (event.key === 'Tab') {
      event.preventDefault();
      close(true);
    }
  };

  const select = (item: MenuItem) => {
    if (isDisabled(item)) return;
    close(true);
    item.onSelect?.();
  };

  return (
    <>
      <button
        ref={buttonCallbackRef}
        type="button"
        className={triggerClassName}
        aria-label={label}
        aria-haspopup="menu"
        aria-expanded={open}
        aria-controls={open ? menuId : undefined}
        onClick={() => (open ? close(false) : openAt(0))}
        onKeyDown={onButtonKeyDown}
      >
        {trigger}
      </button>
      {open && (
        <FloatingLayer anchor={elements.reference}>
          <div ref={setFloating} className="menu" style={floatingStyles} role="presentation">
            {header && <div className="menu-header">{header}</div>}
            <ul id={menuId} role="menu" aria-label={label} onKeyDown={onMenuKeyDown} className="menu-list">
              {items.map((item, index) => {
                const labelId = `${menuId}-item-${index}`;
                const reasonId = `${menuId}-reason-${index}`;
                return (
                  <li key={item.label} role="none">
                    <button
                      ref={(element) => {
                        itemRefs.current[index] = element;
                      }}
                      type="button"
                      role="menuitem"
                      className={cx('menu-item', item.destructive && 'menu-item-destructive')}
                      tabIndex={index === focusIndex ? 0 : -1}
                      aria-disabled={isDisabled(item) || undefined}
                      aria-labelledby={labelId}
                      aria-describedby={item.disabledReason ? reasonId : undefined}
                      onClick={() => select(item)}
                    >
                      <span id={labelId} className="menu-item-label">
                        {item.label}
                      </span>
                      {item.disabledReason && (
                        <span id={reasonId} className="menu-item-reason">
                          {item.disabledReason}
                        </span>
                      )}
                    </button>
                  </li>
                );
              })}
            </ul>
          </div>
        </FloatingLayer>
      )}
    </>
  );
}

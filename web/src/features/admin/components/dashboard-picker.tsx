import { useEffect, useId, useMemo, useRef, useState, type KeyboardEvent } from 'react';
import type { DashboardMetadata } from '#contracts/quicksight-admin.ts';
import { Button } from '#web/components/button.tsx';
import { FloatingLayer, useAnchoredPopover } from '#web/components/floating-layer.tsx';
import './dashboard-picker.css';

export interface DashboardPickerProps {
  readonly label: string;
  readonly dashboards: readonly DashboardMetadata[];
  /** Selected catalogue record ids, in the order they were picked. */
  readonly selected: readonly string[];
  readonly onToggle: (recordId: string) => void;
  readonly invalid?: boolean;
}

const matches = (dashboard: DashboardMetadata, needle: string) =>
  !needle ||
  dashboard.dashboardName.toLowerCase().includes(needle) ||
  dashboard.dashboardId.toLowerCase().includes(needle);

/**
 * A searchable multi-select dropdown: a button opens a panel with a search box, the count
 * of shown dashboards ('N of M'), one checkbox per dashboard and 'Done (N selected)'.
 * Escape or a click outside closes it, and focus returns to the button.
 */
export function DashboardPicker({ label, dashboards, selected, onToggle, invalid }: DashboardPickerProps) {
  const [open, setOpen] = useState(false);
  const [query, setQuery] = useState('');
  const panelId = useId();
  const labelId = useId();
  const searchRef = useRef<HTMLInputElement>(null);
  // Floats over the dialog (its footer stays in view) rather than growing or scrolling it.
  const {
    floatingStyles,
    elements,
    refs,
    anchor: buttonRef,
    anchorRef: buttonCallbackRef,
  } = useAnchoredPopover<HTMLButtonElement>({
    open,
    matchWidth: true,
    gap: 4,
    onDismiss: () => setOpen(false),
  });
  const { setFloating } = refs;

  const needle = query.trim().toLowerCase();
  const shown = useMemo(() => dashboards.filter((dashboard) => matches(dashboard, needle)), [dashboards, needle]);

  useEffect(() => {
    if (open) searchRef.current?.focus({ preventScroll: true });
  }, [open]);

  const close = () => {
    setOpen(false);
    buttonRef.current?.focus();
  };

  const onPanelKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    if (event.key !== 'Escape') return;
    // The dropdown closes; the dialog around it stays open.
    event.stopPropagation();
    close();
  };

  return (
    <div className="field">
      <span className="field-label" id={labelId}>
        {label}
      </span>
      <button
        ref={buttonCallbackRef}
        type="button"
        className="select picker-button"
        aria-expanded={open}
        aria-controls={open ? panelId : undefined}
        aria-labelledby={`${labelId} ${panelId}-summary`}
        aria-invalid={invalid || undefined}
        onClick={() => (open ? close() : setOpen(true))}
      >
        <span id={`${panelId}-summary`}>
          {selected.length === 0 ? 'Select dashboards' : `${selected.length} selected`}
        </span>
      </button>
      {open && (
        <FloatingLayer anchor={elements.reference}>
          <div
            ref={setFloating}
            id={panelId}
            className="picker-panel"
            style={floatingStyles}
            role="group"
            aria-labelledby={labelId}
            onKeyDown={onPanelKeyDown}
          >
            <div className="picker-search">
              <label className="visually-hidden" htmlFor={`${panelId}-search`}>
                Search dashboards
              </label>
              <input
                ref={searchRef}
                id={`${panelId}-search`}
                type="search"
                className="input"
                placeholder="Search dashboards..."
                value={query}
                autoComplete="off"
                onChange={(event) => setQuery(event.target.value)}
              />
              <span className="picker-count text-muted" role="status">
                {shown.length} of {dashboards.length}
              </span>
            </div>
            {shown.length === 0 ? (
              <p className="text-muted picker-empty">No dashboards match your search</p>
            ) : (
              <ul className="picker-options">
                {shown.map((dashboard) => (
                  <li key={dashboard.id}>
                    <label className="picker-option">
                      <input
                        type="checkbox"
                        checked={selected.includes(dashboard.id)}
                        onChange={() => onToggle(dashboard.id)}
                      />
                      <span>
                        {dashboard.dashboardName}
                        <span className="picker-option-id text-muted">{dashboard.dashboardId}</span>
                      </span>
                    </label>
                  </li>
                ))}
              </ul>
            )}
            <div className="picker-footer">
              <Button size="sm" onClick={close}>
                Done ({selected.length} selected)
              </Button>
            </div>
          </div>
        </FloatingLayer>
      )}
    </div>
  );
}

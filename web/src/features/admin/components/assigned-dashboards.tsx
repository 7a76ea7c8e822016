import { useId, useState } from 'react';
import { FloatingLayer, useAnchoredPopover } from '#web/components/floating-layer.tsx';
import './assigned-dashboards.css';

/** Dashboards of the catalogue assigned to each user, by lowercased email. */
export type AssignmentsByEmail = ReadonlyMap<string, readonly string[]>;

/** Inverts the catalogue's assigned users into each user's dashboard names (sorted). */
export function assignmentsByEmail(
  catalogue: readonly { readonly dashboardName: string; readonly assignedUserEmails?: readonly string[] }[],
): AssignmentsByEmail {
  const byEmail = new Map<string, string[]>();
  for (const dashboard of catalogue) {
    for (const email of dashboard.assignedUserEmails ?? []) {
      const key = email.toLowerCase();
      const names = byEmail.get(key) ?? [];
      names.push(dashboard.dashboardName);
      byEmail.set(key, names);
    }
  }
  for (const names of byEmail.values()) names.sort((a, b) => a.localeCompare(b));
  return byEmail;
}

const dashboardCountText = (count: number) => `${count} ${count === 1 ? 'dashboard' : 'dashboards'}`;

/**
 * A user's assigned dashboards in a table cell: the count, and the names on demand in a
 * popover (a click or Enter opens it; Escape, a click outside or the button again closes it).
 */
export function AssignedDashboards({
  email,
  names,
}: {
  readonly email: string;
  readonly names: readonly string[] | undefined;
}) {
  const listId = useId();
  const [open, setOpen] = useState(false);
  const { anchor, anchorRef, refs, elements, floatingStyles } = useAnchoredPopover<HTMLButtonElement>({
    open,
    onDismiss: () => setOpen(false),
  });
  const { setFloating } = refs;
  if (names === undefined) return <span className="text-muted">—</span>;
  if (names.length === 0) return <span className="text-muted">None</span>;
  const close = () => {
    setOpen(false);
    anchor.current?.focus();
  };
  return (
    <>
      <button
        ref={anchorRef}
        type="button"
        className="assigned-dashboards-button"
        aria-expanded={open}
        aria-controls={open ? listId : undefined}
        aria-label={`${dashboardCountText(names.length)} assigned to ${email}`}
        onClick={() => setOpen((value) => !value)}
        onKeyDown={(event) => {
          if (event.key === 'Escape' && open) {
            event.stopPropagation();
            close();
          }
        }}
      >
        {dashboardCountText(names.length)}
      </button>
      <FloatingLayer anchor={elements.reference}>
        {open && (
          <div
            ref={setFloating}
            id={listId}
            role="region"
            aria-label={`Dashboards assigned to ${email}`}
            className="assigned-dashboards-popover"
            style={floatingStyles}
            onKeyDown={(event) => {
              if (event.key === 'Escape') close();
            }}
          >
            <ul>
              {names.map((name, index) => (
                <li key={`${index}-${name}`}>{name}</li>
              ))}
            </ul>
          </div>
        )}
      </FloatingLayer>
    </>
  );
}

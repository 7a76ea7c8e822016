import { Menu, type MenuItem } from './menu.tsx';

export type RowAction = MenuItem;

export interface RowActionsProps {
  /** Names the button for assistive technology, e.g. 'Actions for ann@example.com'. */
  readonly label: string;
  /** In the order they are offered; destructive ones last, by convention. */
  readonly actions: readonly RowAction[];
  /** What the row is, shown in full at the top of the menu (e.g. an email cut short in the row). */
  readonly title?: string;
  /** While an action for this row runs, the button is disabled. */
  readonly busy?: boolean;
}

/**
 * The actions of one table row or card behind one '⋯' button: the same place and width in
 * every row, whichever actions a row has. Actions that are not allowed stay in the menu,
 * disabled, with the reason under their label.
 */
export function RowActions({ label, title, actions, busy = false }: RowActionsProps) {
  if (busy) {
    return (
      <button type="button" className="btn btn-ghost btn-icon" aria-label={label} disabled>
        <span className="spinner spinner-sm" aria-hidden="true" />
      </button>
    );
  }
  return (
    <Menu
      label={label}
      triggerClassName="btn btn-ghost btn-icon"
      trigger={<span aria-hidden="true">⋯</span>}
      items={actions}
      header={title && <span>{title}</span>}
    />
  );
}

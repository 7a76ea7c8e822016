import { useVirtualizer } from '@tanstack/react-virtual';
import { useEffect, useRef, type CSSProperties, type ReactElement, type ReactNode } from 'react';
import { CARD_LAYOUT_QUERY, useMediaQuery } from '#web/lib/use-media-query.ts';
import './tables.css';

export interface VirtualTableProps<T> {
  /** Accessible name of the table (and of its scrolling region). */
  readonly label: string;
  /** The header row's cells (<th scope="col">...). */
  readonly header: ReactNode;
  readonly columnCount: number;
  readonly rows: readonly T[];
  readonly rowKey: (row: T) => string;
  /** One <tr> per row, from a memoized row component so unchanged rows are not re-rendered. */
  readonly renderRow: (row: T, ariaRowIndex: number) => ReactElement;
  /** Shown in place of the rows when there are none. */
  readonly empty: ReactNode;
  /** Fixed row height in pixels; the stylesheet keeps rows at this height. */
  readonly rowHeight: number;
  /** Height of a row shown as a card on a narrow screen (CARD_LAYOUT_QUERY). */
  readonly cardHeight: number;
  /** Scrolling returns to the top when this changes (e.g. the search query). */
  readonly resetScrollKey?: string;
}

/**
 * On a narrow screen each row is a card: the cell marked `cell-primary` and the one marked
 * `cell-actions` on the first line, the other cells (labelled by their `data-label`) below.
 *
 * A table that renders only the rows in view (plus a few), so it stays smooth with tens
 * of thousands of rows. It is a real <table>: spacer rows above and below the rendered ones
 * keep the scroll height, and aria-rowcount / aria-rowindex tell assistive technology
 * where each row sits in the whole list.
 */
export function VirtualTable<T>({
  label,
  header,
  columnCount,
  rows,
  rowKey,
  renderRow,
  empty,
  rowHeight,
  cardHeight,
  resetScrollKey,
}: VirtualTableProps<T>) {
  const scrollRef = useRef<HTMLDivElement>(null);
  const cards = useMediaQuery(CARD_LAYOUT_QUERY);
  const height = cards ? cardHeight : rowHeight;
  // The build does not use the React compiler, so nothing memoizes the functions this hook returns.
  // eslint-disable-next-line react-hooks/incompatible-library
  const virtualizer = useVirtualizer({
    count: rows.length,
    getScrollElement: () => scrollRef.current,
    estimateSize: () => height,
    getItemKey: (index) => rowKey(rows[index]!),
    overscan: 8,
  });

  useEffect(() => {
    virtualizer.measure();
  }, [virtualizer, height]);

  useEffect(() => {
    const element = scrollRef.current;
    if (element && element.scrollTop !== 0) element.scrollTop = 0;
  }, [resetScrollKey]);

  const items = virtualizer.getVirtualItems();
  const paddingTop = items[0]?.start ?? 0;
  const paddingBottom = items.length > 0 ? virtualizer.getTotalSize() - items[items.length - 1]!.end : 0;

  return (
    <div ref={scrollRef} className="vtable-scroll" role="region" aria-label={label} tabIndex={0}>
      <table
        className={cards ? 'vtable vtable-cards' : 'vtable'}
        aria-label={label}
        aria-rowcount={rows.length + 1}
        data-row-count={rows.length}
        style={{ '--vtable-row-height': `${height}px` } as CSSProperties}
      >
        <thead>
          <tr aria-rowindex={1}>{header}</tr>
        </thead>
        <tbody>
          {rows.length === 0 ? (
            <tr>
              <td colSpan={columnCount} className="vtable-empty">
                {empty}
              </td>
            </tr>
          ) : (
            <>
              {paddingTop > 0 && (
                <tr aria-hidden="true" className="vtable-spacer" style={{ height: paddingTop }}>
                  <td colSpan={columnCount} />
                </tr>
              )}
              {items.map((item) => renderRow(rows[item.index]!, item.index + 2))}
              {paddingBottom > 0 && (
                <tr aria-hidden="true" className="vtable-spacer" style={{ height: paddingBottom }}>
                  <td colSpan={columnCount} />
                </tr>
              )}
            </>
          )}
        </tbody>
      </table>
    </div>
  );
}

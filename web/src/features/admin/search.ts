import { useDeferredValue, useMemo, useState } from 'react';

/**
 * Client-side search for lists of any length (admin-portal §9: everything is filtered in
 * the browser). Each row's searchable text is lowercased once, when the list changes, so a
 * keystroke costs one substring test per row and nothing else.
 */
export function buildSearchIndex<T>(rows: readonly T[], text: (row: T) => string): string[] {
  return rows.map((row) => text(row).toLowerCase());
}

export function filterByIndex<T>(rows: readonly T[], index: readonly string[], query: string): readonly T[] {
  const needle = query.trim().toLowerCase();
  if (!needle) return rows;
  const matches: T[] = [];
  for (let i = 0; i < rows.length; i += 1) {
    if (index[i]!.includes(needle)) matches.push(rows[i]!);
  }
  return matches;
}

export interface SearchState<T> {
  readonly query: string;
  readonly setQuery: (query: string) => void;
  /** The query the rows below were filtered with; it lags `query` while React catches up. */
  readonly appliedQuery: string;
  readonly rows: readonly T[];
}

/**
 * The search box state and the filtered rows. The filter runs on the deferred query, so
 * typing stays responsive and the table renders once the browser is free. `text` must be
 * stable (a module-level function).
 */
export function useSearch<T>(rows: readonly T[], text: (row: T) => string): SearchState<T> {
  const [query, setQuery] = useState('');
  const appliedQuery = useDeferredValue(query);
  const index = useMemo(() => buildSearchIndex(rows, text), [rows, text]);
  const filtered = useMemo(() => filterByIndex(rows, index, appliedQuery), [rows, index, appliedQuery]);
  return { query, setQuery, appliedQuery, rows: filtered };
}

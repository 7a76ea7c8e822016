import { useSyncExternalStore } from 'react';

/** Below this width the admin tables show each row as a card (phones, narrow windows). */
export const CARD_LAYOUT_QUERY = '(max-width: 767.98px)';

/** A phone held upright: the dashboard page keeps its toolbar to one row and fills the screen. */
export const PHONE_QUERY = '(max-width: 480px)';

const matchMediaOf = () =>
  typeof window !== 'undefined' && typeof window.matchMedia === 'function' ? window.matchMedia : null;

/** Whether a CSS media query matches now; re-renders when that changes. False where there is no matchMedia. */
export function useMediaQuery(query: string): boolean {
  return useSyncExternalStore(
    (onChange) => {
      const list = matchMediaOf()?.(query);
      list?.addEventListener('change', onChange);
      return () => list?.removeEventListener('change', onChange);
    },
    () => matchMediaOf()?.(query).matches ?? false,
    () => false,
  );
}

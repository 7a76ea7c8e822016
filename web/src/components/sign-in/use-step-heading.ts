import { useEffect, useRef } from 'react';

const NOT_SHOWN = Symbol('not shown');

/**
 * Focus for multi-step screens: the returned ref goes on the step's heading (with
 * tabIndex={-1}), and focus moves there whenever `step` changes, so keyboard and screen-reader
 * users start the new step at its top. With `onMount`, also when the component first appears
 * (a step that replaces the previous one); without it, the first step of a page keeps the
 * browser's own focus.
 */
export function useStepHeading<T extends HTMLElement = HTMLHeadingElement>(step: unknown, { onMount = true } = {}) {
  const ref = useRef<T>(null);
  const shown = useRef<unknown>(onMount ? NOT_SHOWN : step);
  useEffect(() => {
    if (Object.is(shown.current, step)) return;
    shown.current = step;
    ref.current?.focus();
  }, [step]);
  return ref;
}

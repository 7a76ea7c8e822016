import { inject } from 'vitest';
import type { StackInfo } from '../../../local/stack-info.ts';
import './provided.ts';

export type { DemoAccount, StackInfo } from '../../../local/stack-info.ts';

/** The running local stack's stack.json, as the global setup provided it. */
export function useStack(): StackInfo {
  return inject('stack');
}

import type { StackInfo } from '../../../local/stack-info.ts';

// What the end-to-end global setup provides to every test file (`inject('stack')`).
declare module 'vitest' {
  export interface ProvidedContext {
    stack: StackInfo;
  }
}

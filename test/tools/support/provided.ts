import type { StackInfo } from '#clients/local-stack.ts';
import '#test/e2e/support/provided.ts';

// What the tools project's global setup provides to its files (`inject('toolsStack')`), besides the
// file of authenticator steps used (`totpLedger`).
declare module 'vitest' {
  export interface ProvidedContext {
    /** The local stack the tools' files share (test/tools/global-setup.ts). */
    toolsStack: { dataDir: string; info: StackInfo };
  }
}

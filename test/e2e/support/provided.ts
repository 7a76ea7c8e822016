import type { DemoAccount, StackInfo } from '#clients/local-stack.ts';

// What the end-to-end global setup provides to every test file (`inject('stack')`).
declare module 'vitest' {
  export interface ProvidedContext {
    stack: StackInfo;
    /** The file of authenticator steps used in this run (see support/totp-ledger.ts). */
    totpLedger: string;
    /** Administrators besides the demo admin (support/admin-pool.ts). */
    adminPool: DemoAccount[];
  }
}

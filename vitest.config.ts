import react from '@vitejs/plugin-react';
import { defineConfig } from 'vitest/config';
import BalancedSequencer from './test/support/balanced-sequencer.ts';

// The projects: unit (handlers, emulators, tools), infra (CDK), web components, conformance, end-to-end, the bench
// smoke. `npm test` (test/run.ts) runs the journeys' lane beside the others' and prints each project's time
// (test/support/project-times.ts, also at the end of any `vitest run`).
// The SDK's notice about its future Node 22 floor is noise on the Node 20 machines tests run on.
const env = { AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true' };
// Vitest's default is one worker fewer than the cores: one on the 2-core machines CI uses. Unit,
// web and conformance files run two at a time (much of their time is spent waiting on child
// processes); the end-to-end files run one after the other, after them.
const maxWorkers = 2;
// Limits: at least three times the slowest time measured with all three lanes of `npm test` running on a 2-core
// machine (2026-11-28): a unit test that drives a tool against a stack took up to 36 s, an infra synthesis 50 s,
// a component test 17 s, a conformance file's hook 40 s, a journey up to 120 s.
/** The test files of the stacks project: each starts stacks of its own, which is what it tests. */
const STACK_FILES = ['test/local/{stack,stack-restart,start-signals}.test.ts'];
/** The test files of the tools project: they drive the tools against one stack. */
const TOOL_STACK_FILES = ['test/tools/{doctor,verify-deployment,create-admin,isolation}.test.ts'];
/** The deploy tool's guard builds CDK apps: it shares the infra project's workers and their default app. */
const CDK_TOOL_FILE = 'test/tools/deploy-guard.test.ts';
/** The component test that needs a module graph of its own (see the web-isolated project). */
const WEB_OWN_MODULES = 'test/web/session-signout.test.tsx';

export default defineConfig({
  test: {
    reporters: ['default', './test/support/project-times.ts'],
    // Shards (the journeys' two lanes in test/run.ts) are split by expected time.
    sequence: { sequencer: BalancedSequencer },
    projects: [
      {
        test: {
          name: 'unit',
          maxWorkers,
          isolate: false,
          setupFiles: ['test/support/unit-worker-setup.ts'],
          env,
          environment: 'node',
          // The files share worker processes (isolate: false), so the SDK and the other packages load once per
          // worker; the handlers read their environment when their modules load and each file sets its own, so
          // test/support/unit-worker-setup.ts gives each file a fresh graph of the project's own modules (the
          // CognitoThrottles metric test stubs the metrics module's) and puts back the environment it changed.
          include: [
            'test/lambdas/**/*.test.ts',
            'test/tools/**/*.test.ts',
            'test/infra/operations-cognito-throttles.test.ts',
          ],
          exclude: [...TOOL_STACK_FILES, CDK_TOOL_FILE],
          testTimeout: 120_000,
          hookTimeout: 300_000,
        },
      },
      {
        test: {
          // The local services, emulators and harness, and the contracts, take no configuration from the
          // environment when they load: their files share worker processes (isolate: false), so the SDK, the
          // emulators and the harness load once per worker instead of once per file, which took most of their
          // time. test/support/shared-worker-setup.ts undoes what a file stubs.
          name: 'local',
          maxWorkers,
          isolate: false,
          env,
          environment: 'node',
          include: ['test/{local,contracts}/**/*.test.ts'],
          exclude: [...STACK_FILES],
          setupFiles: ['test/support/shared-worker-setup.ts'],
          testTimeout: 120_000,
          hookTimeout: 300_000,
        },
      },
      {
        test: {
          // Files that start whole local stacks and drive them as a user would: most of their time is
          // spent waiting (for a stack to start, for the next authenticator step), so `npm test` runs them in a
          // lane of their own beside the files that keep the processors busy.
          name: 'stacks',
          maxWorkers,
          env,
          environment: 'node',
          include: [...STACK_FILES],
          testTimeout: 120_000,
          hookTimeout: 300_000,
        },
      },
      {
        test: {
          // The tools run as a platform engineer runs them, against one local stack (test/tools/global-setup.ts)
          // that their files share: one at a time, each putting back what it changes.
          name: 'tools',
          env,
          environment: 'node',
          include: [...TOOL_STACK_FILES],
          globalSetup: ['test/tools/global-setup.ts'],
          fileParallelism: false,
          testTimeout: 120_000,
          hookTimeout: 300_000,
        },
      },
      {
        test: {
          // The CDK app's tests only build apps: their files share worker processes (isolate: false), so
          // aws-cdk-lib is loaded once per worker and the default app, which most of them read, is synthesized
          // once per worker (sharedPortalBuild).
          name: 'infra',
          maxWorkers,
          isolate: false,
          env,
          environment: 'node',
          include: ['test/infra/**/*.test.ts', CDK_TOOL_FILE],
          exclude: ['test/infra/operations-cognito-throttles.test.ts'],
          testTimeout: 180_000,
          hookTimeout: 300_000,
        },
      },
      {
        plugins: [react()],
        test: {
          // Component files share worker processes (isolate: false): React, the router and jsdom load once per
          // worker instead of once per file, which halves the project's time. test/web/setup.ts clears what a test
          // leaves behind (the DOM, storage, mocks, timers, toasts).
          name: 'web',
          maxWorkers,
          isolate: false,
          environment: 'jsdom',
          include: ['test/web/**/*.test.{ts,tsx}'],
          exclude: [WEB_OWN_MODULES],
          setupFiles: ['test/web/setup.ts'],
          testTimeout: 60_000,
        },
      },
      {
        plugins: [react()],
        test: {
          // Fakes Date before the toast library loads, which a shared module graph has loaded already.
          name: 'web-isolated',
          maxWorkers,
          environment: 'jsdom',
          include: [WEB_OWN_MODULES],
          setupFiles: ['test/web/setup.ts'],
          testTimeout: 60_000,
        },
      },
      {
        test: {
          // Behaviour the product relies on, against local mode (CONFORMANCE_TARGET=aws: a real account).
          name: 'conformance',
          maxWorkers,
          env,
          environment: 'node',
          include: ['test/conformance/**/*.test.ts'],
          testTimeout: 120_000,
          hookTimeout: 300_000,
        },
      },
      {
        test: {
          // `npm run bench -- --smoke` (test/bench): its modules start their own stacks and browsers, so `npm test`
          // runs it in a lane of its own, started when the first other lane ends, instead of after journeys it does
          // not need.
          name: 'bench',
          env,
          environment: 'node',
          include: ['test/bench/**/*.test.ts'],
          globalSetup: ['test/bench/global-setup.ts'],
        },
      },
      {
        test: {
          name: 'e2e',
          env,
          environment: 'node',
          include: ['test/e2e/**/*.test.ts'],
          globalSetup: ['test/e2e/global-setup.ts'],
          fileParallelism: false,
          testTimeout: 420_000,
          hookTimeout: 600_000,
        },
      },
    ],
  },
});

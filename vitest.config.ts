import react from '@vitejs/plugin-react';
import { defineConfig } from 'vitest/config';

// One `vitest run` runs every suite: unit (CDK, handlers, emulators), web components, end-to-end, bench smoke.
// The SDK's notice about its future Node 22 floor is noise on the Node 20 machines tests run on.
const env = { AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true' };
// Vitest's default is one worker fewer than the cores: one on the 2-core machines CI uses. Unit,
// web and conformance files run two at a time (much of their time is spent waiting on child
// processes); the end-to-end files run one after the other, after them.
const maxWorkers = 2;

export default defineConfig({
  test: {
    projects: [
      {
        test: {
          name: 'unit',
          maxWorkers,
          env,
          environment: 'node',
          include: ['test/{infra,lambdas,local,contracts}/**/*.test.ts', 'test/tools/**/*.test.ts'],
          testTimeout: 60_000,
          hookTimeout: 120_000,
        },
      },
      {
        plugins: [react()],
        test: {
          name: 'web',
          maxWorkers,
          environment: 'jsdom',
          include: ['test/web/**/*.test.{ts,tsx}'],
          setupFiles: ['test/web/setup.ts'],
          testTimeout: 30_000,
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
          testTimeout: 60_000,
          hookTimeout: 120_000,
        },
      },
      {
        test: {
          // With the journeys: `npm run bench -- --smoke` (test/bench), whose admin table needs the Chromium this
          // set-up installs.
          name: 'e2e',
          env,
          environment: 'node',
          include: ['test/e2e/**/*.test.ts', 'test/bench/**/*.test.ts'],
          globalSetup: ['test/e2e/global-setup.ts'],
          fileParallelism: false,
          testTimeout: 180_000,
          hookTimeout: 300_000,
        },
      },
    ],
  },
});

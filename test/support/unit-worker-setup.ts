import { afterAll, vi } from 'vitest';
import './shared-worker-setup.ts';

// Files of the unit project share worker processes (isolate: false in vitest.config.ts), so the SDK and
// the other packages load once per worker. The handlers read their environment when their modules load
// and each file sets its own: each file starts with a fresh graph of the project's own modules, and the
// environment it changed is put back when it ends.
vi.resetModules();
const environmentBefore = { ...process.env };
afterAll(() => {
  for (const name of Object.keys(process.env)) if (!(name in environmentBefore)) delete process.env[name];
  Object.assign(process.env, environmentBefore);
});

import { App } from 'aws-cdk-lib';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { ConfigError, loadConfig } from '#lib/config.ts';
import { isDeploying, placeholderProblems } from '#lib/config-placeholders.ts';

/** CDK app entry (`cdk.json`: `npx tsx bin/app.ts`). */
const webAssetDirectory = fileURLToPath(new URL('../web/dist', import.meta.url));

function fail(message: string): never {
  console.error(message);
  process.exit(1);
}

const app = new App();
try {
  const config = loadConfig((key) => app.node.tryGetContext(key));
  const placeholders = isDeploying((key) => app.node.tryGetContext(key)) ? placeholderProblems(config) : [];
  if (placeholders.length > 0) {
    fail(
      `Not deploying: the configuration still has placeholders (see docs/deploy.md):\n${placeholders.map((p) => `  - ${p}`).join('\n')}`,
    );
  }
  if (!existsSync(`${webAssetDirectory}/index.html`)) {
    fail(
      'The web app is not built: web/dist/index.html is missing. Run `npm run build:web` first (`npm run synth` and `npm run deploy` do).',
    );
  }
  // The constructs load once the checks have passed: a refused deployment is told at once (loading them takes seconds).
  const { addPortal } = await import('#lib/portal-app.ts');
  addPortal(app, { config, webAssetDirectory, account: process.env.CDK_DEFAULT_ACCOUNT });
} catch (error) {
  if (error instanceof ConfigError) fail(error.message);
  throw error;
}

import { ESLint } from 'eslint';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

// `npm run lint` holds each top-level folder to the folders it may import and refuses import
// circles (eslint.config.js). These snippets are linted as if they were files at the given
// paths, with the project's own configuration.
const projectRoot = fileURLToPath(new URL('../..', import.meta.url));
const eslint = new ESLint({ cwd: projectRoot, overrideConfigFile: 'eslint.config.js' });

async function problems(filePath: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath });
  return (result?.messages ?? []).map((message) => `${message.ruleId}: ${message.message}`);
}

const layerBreak = expect.stringMatching(
  /^import-x\/no-restricted-paths: Unexpected path ".+" imported in restricted zone\./,
);

describe('import layers in lint', () => {
  it('refuses a layer-breaking import and passes one the layers allow', async () => {
    // A function importing the web app.
    expect(await problems('lambdas/x.ts', "export { paths } from '#web/config/paths.ts';\n")).toEqual([layerBreak]);
    // An emulator importing a function's code, and the harness.
    expect(
      await problems(
        'emulators/cognito/x.ts',
        "export { createLogger } from '#lambdas/shared/logger.ts';\nexport { PORT_OFFSETS } from '#local/ports.ts';\n",
      ),
    ).toEqual([layerBreak, layerBreak]);
    // A sample dashboard importing the QuickSight emulator that serves it.
    expect(
      await problems(
        'emulators/sample-dashboards/x.ts',
        "export { dashboardArn } from '#emulators/quicksight/arns.ts';\n",
      ),
    ).toEqual([layerBreak]);
    // A tool importing an emulator: the tools act on a deployment, never on local mode's stand-ins.
    expect(await problems('tools/x.ts', "export { readTotpSecret } from '#emulators/cognito/index.ts';\n")).toEqual([
      layerBreak,
    ]);
    // The harness importing an emulator, and an emulator importing another emulator's shared helpers: allowed.
    expect(await problems('local/x.ts', "export { readTotpSecret } from '#emulators/cognito/index.ts';\n")).toEqual([]);
    // A web feature importing another feature, and a shared component importing a feature.
    expect(
      await problems(
        'web/src/features/admin/x.tsx',
        "export { LoginPage } from '#web/features/auth/routes/login-page.tsx';\n",
      ),
    ).toEqual([layerBreak]);
    expect(
      await problems('web/src/components/x.tsx', "export { AdminApp } from '#web/features/admin/admin-app.tsx';\n"),
    ).toEqual([layerBreak]);
    // A feature importing the shared sign-in pieces: allowed.
    expect(
      await problems(
        'web/src/features/admin/x.tsx',
        "export { SignInFlow } from '#web/components/sign-in/sign-in-flow.tsx';\n",
      ),
    ).toEqual([]);
    // contracts/ importing a function's code, even for a type.
    expect(await problems('contracts/x.ts', "export type { Logger } from '#lambdas/shared/logger.ts';\n")).toEqual([
      layerBreak,
    ]);
    // A construct reaching into the compliance pack other than through lib/compliance.ts, and a
    // tool importing local mode.
    expect(await problems('lib/x.ts', "export { ComplianceReportPlugin } from '#compliance/plugin.ts';\n")).toEqual([
      layerBreak,
    ]);
    expect(await problems('tools/x.ts', "export { PORT_OFFSETS } from '#local/ports.ts';\n")).toEqual([layerBreak]);
    // What the tools share with local mode (clients/) importing local mode itself.
    expect(await problems('clients/x.ts', "export { PORT_OFFSETS } from '#local/ports.ts';\n")).toEqual([layerBreak]);

    expect(
      await problems(
        'lambdas/x.ts',
        "export { ADMINS_GROUP } from '#contracts/groups.ts';\nexport { createLogger } from './shared/logger.ts';\n",
      ),
    ).toEqual([]);
    expect(await problems('lib/compliance-x.ts', "export { ADMINS_GROUP } from '#contracts/groups.ts';\n")).toEqual([]);
  });

  it('refuses an import that climbs out of its folder instead of naming its subpath', async () => {
    const climbing = expect.stringMatching(/^no-restricted-imports: .*by its subpath \(#contracts\/…, #web\/…\)/);
    // Two folders up from a function's folder, and one up from the top of lib/.
    expect(await problems('lambdas/embed/x.ts', "export { ADMINS_GROUP } from '../../contracts/groups.ts';\n")).toEqual(
      [climbing],
    );
    expect(await problems('lib/x.ts', "export { ADMINS_GROUP } from '../contracts/groups.ts';\n")).toEqual([climbing]);
    // The web app is held to it as well; one folder up inside lambdas/ is not climbing out.
    expect(
      await problems('web/src/features/admin/x.ts', "export { dashboardPath } from '../../config/paths.ts';\n"),
    ).toEqual([climbing]);
    expect(await problems('lambdas/embed/x.ts', "export { createLogger } from '../shared/logger.ts';\n")).toEqual([]);
    // The subpath resolves through package.json's imports, so the layer rules still see the
    // file behind it: a function naming the web app by subpath breaks its layer.
    expect(await problems('lambdas/embed/x.ts', "export { paths } from '#web/config/paths.ts';\n")).toEqual([
      layerBreak,
    ]);
  });

  it('refuses an import that closes a circle', async () => {
    // contracts/fields.ts imports contracts/rules.ts; rules.ts importing fields.ts back closes a circle.
    expect(readFileSync(new URL('../../contracts/fields.ts', import.meta.url), 'utf8')).toContain("from './rules.ts'");
    expect(await problems('contracts/rules.ts', "export { signInEmail } from './fields.ts';\n")).toEqual([
      'import-x/no-cycle: Dependency cycle detected',
    ]);
  });
});

describe('file length in lint', () => {
  it('refuses a product file past 400 lines and passes one of 400; test files are not held to it', async () => {
    const lines = (count: number) => Array.from({ length: count }, (_, index) => `export const n${index} = ${index};`);
    const tooLong = `${lines(401).join('\n')}\n`;
    expect(await problems('lib/x.ts', tooLong)).toEqual([
      'max-lines: File has too many lines (401). Maximum allowed is 400.',
    ]);
    expect(await problems('web/src/components/x.tsx', tooLong)).toEqual([
      'max-lines: File has too many lines (401). Maximum allowed is 400.',
    ]);
    expect(await problems('lib/x.ts', `${lines(400).join('\n')}\n`)).toEqual([]);
    expect(await problems('test/lambdas/x.test.ts', tooLong)).toEqual([]);
  });
});

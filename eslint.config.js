import js from '@eslint/js';
import { createNodeResolver, importX } from 'eslint-plugin-import-x';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import { fileURLToPath } from 'node:url';
import tseslint from 'typescript-eslint';

const projectRoot = fileURLToPath(new URL('.', import.meta.url));

/** Every top-level folder of ours that holds code. */
const ours = [
  'bench',
  'bin',
  'clients',
  'compliance',
  'contracts',
  'emulators',
  'lambdas',
  'lib',
  'local',
  'test',
  'tools',
  'web',
];
/** Our folders other than `allowed`: what a zone's files must not import. */
const except = (...allowed) => ours.filter((folder) => !allowed.includes(folder));

/** The web app's features (web/src/features/<feature>/). */
const WEB_FEATURES = ['admin', 'auth', 'dashboard', 'portal', 'settings', 'support'];

/**
 * Who may import whom. Each zone names the files it holds to (target) and the folders they
 * must not import (from); an import is resolved to a file before it is compared, so `../`
 * chains, dynamic `import()` and type-only imports are all held to it. bench/ and test/
 * stand above everything and may import any of it; tools/ anything but local mode.
 */
const layerZones = [
  {
    target: 'contracts',
    from: except('contracts'),
    message: 'contracts/ holds the shapes every layer shares and imports nothing of ours (only packages).',
  },
  {
    target: 'lambdas',
    from: except('contracts', 'lambdas'),
    message: 'A function imports only contracts/ and lambdas/; move a shared fact into contracts/.',
  },
  {
    target: 'web',
    from: except('contracts', 'web'),
    message: 'The web app imports only contracts/ and web/; move a shared fact into contracts/.',
  },
  {
    target: 'lib',
    from: except('contracts', 'lib', 'compliance'),
    message:
      "CDK constructs import contracts/ and lib/; a function's code is bundled from its entry path (a string), never imported.",
  },
  {
    target: 'lib/**/!(compliance).ts',
    from: ['compliance'],
    message: 'Constructs reach the compliance pack only through lib/compliance.ts.',
  },
  {
    target: 'compliance',
    from: except('contracts', 'lib', 'compliance'),
    message: 'The compliance pack imports contracts/ and lib/ (what it checks), never local mode or a function.',
  },
  {
    target: 'emulators',
    from: except('emulators'),
    message:
      "An emulator stands for an AWS service and imports nothing of the product, local mode's harness included; only emulators/.",
  },
  {
    target: 'emulators/sample-dashboards',
    from: ['emulators/cognito', 'emulators/quicksight', 'emulators/s3', 'emulators/ses', 'emulators/shared'],
    message:
      'The sample dashboards (their data, catalogue and drawings) import nothing of an emulator: QuickSight serves them.',
  },
  {
    target: 'local',
    from: except('contracts', 'clients', 'emulators', 'lib', 'lambdas', 'local'),
    message:
      'The local harness runs the template, its functions and the emulators: contracts/, clients/, emulators/, lib/, lambdas/, local/.',
  },
  {
    target: 'clients',
    from: except('contracts', 'clients'),
    message:
      'clients/ (the local stack as its clients reach it, the Node-side Cognito sign-in) imports contracts/ and clients/ only.',
  },
  {
    target: 'tools',
    from: ['local', 'emulators'],
    message:
      'The tools act on a deployment and never import local mode; what they share with it is in clients/ or contracts/.',
  },
  {
    target: 'bin',
    from: except('contracts', 'lib', 'bin'),
    message: 'The CDK app entry imports the constructs (lib/) and contracts/ only.',
  },
  // Inside the web app, features are fenced (as bulletproof-react's features are): a feature imports
  // the shared components/, lib/ and config/, never another feature, and the shared parts import no
  // feature; the app's wiring (app/) composes them.
  ...WEB_FEATURES.map((feature) => ({
    target: `web/src/features/${feature}`,
    from: WEB_FEATURES.filter((other) => other !== feature).map((other) => `web/src/features/${other}`),
    message: `A feature imports no other feature: move what ${feature}/ shares into web/src/components or web/src/lib.`,
  })),
  {
    target: ['web/src/components', 'web/src/lib', 'web/src/config'],
    from: ['web/src/features', 'web/src/app'],
    message: 'Shared components and libraries import no feature and not the app wiring.',
  },
];

/** A `no-restricted-imports` pattern refusing relative imports that match `regex`. */
const climbing = (regex) => ({
  regex,
  message: 'Import another top-level folder, or a file two or more folders up, by its subpath (#contracts/…, #web/…).',
});

/** The folders whose import graph has no circles: ours but the benches and tests. */
const productFolders = ours.filter((folder) => folder !== 'bench' && folder !== 'test');

export default tseslint.config(
  { ignores: ['node_modules', 'cdk.out', 'web/dist', '.local', '.local-*', 'coverage'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node } },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      // Prettier keeps code within 120 columns (npm run lint checks it); this holds comments to
      // the same width. Strings, templates, addresses and patterns cannot be broken and may run on.
      'max-len': [
        'error',
        { code: 120, ignoreStrings: true, ignoreTemplateLiterals: true, ignoreUrls: true, ignoreRegExpLiterals: true },
      ],
    },
  },
  {
    // The style guide's limit: a module does one thing, and a product file past 400 lines is
    // usually two (split by responsibility). Tests are held to it too loosely to count: a test
    // file holds the cases of one subject, however many.
    files: ours.filter((folder) => folder !== 'test').map((folder) => `${folder}/**/*.{ts,tsx,js,mjs}`),
    rules: { 'max-lines': ['error', { max: 400 }] },
  },
  {
    // The function bundles: esbuild keeps all of zod's locales (about 360 KB minified, parsed
    // at every cold start) when zod is imported as the `z` object, and only what is used when
    // it is imported as a namespace.
    files: ['lambdas/**/*.ts', 'contracts/**/*.ts'],
    rules: {
      'no-restricted-syntax': [
        'error',
        {
          selector:
            "ImportDeclaration[source.value='zod'][importKind!='type'] > :matches(ImportSpecifier[imported.name='z'], ImportDefaultSpecifier)",
          message: "Use `import * as z from 'zod'` so the function bundles leave out zod's locales.",
        },
      ],
    },
  },
  {
    // The layers (layerZones above). The resolver finds what an import names as Node and
    // the bundlers do, trying the TypeScript extensions; every import of ours resolves.
    files: ['**/*.{ts,tsx,js,mjs}'],
    plugins: { 'import-x': importX },
    settings: {
      'import-x/resolver-next': [
        createNodeResolver({ extensions: ['.ts', '.tsx', '.js', '.mjs', '.cjs', '.json', '.node'] }),
      ],
      // The files no-cycle reads to follow an import, and the parser it reads them with.
      'import-x/extensions': ['.ts', '.tsx', '.js', '.mjs'],
      'import-x/parsers': { '@typescript-eslint/parser': ['.ts', '.tsx'] },
    },
    rules: {
      'import-x/no-restricted-paths': ['error', { basePath: projectRoot, zones: layerZones }],
    },
  },
  {
    // No import circles in the product and its tools. Type-only imports are left out (they
    // vanish at build time); dynamic `import()` counts.
    files: productFolders.map((folder) => `${folder}/**/*.{ts,tsx}`),
    plugins: { 'import-x': importX },
    rules: {
      'import-x/no-cycle': ['error', { ignoreExternal: true }],
    },
  },
  {
    // Imports read from the project root: a file reaches another top-level folder, or climbs
    // more than one folder of its own, through the subpath imports in package.json
    // (`#contracts/fields.ts`, `#web/components/button.tsx`), never through a `../../` chain.
    files: ['**/*.{ts,tsx,js,mjs}'],
    rules: {
      'no-restricted-imports': ['error', { patterns: [climbing('^(\\.\\./){2,}')] }],
    },
  },
  {
    // A file at the top of its folder has no folder of its own to climb out of.
    files: [...ours.map((folder) => `${folder}/*.{ts,tsx,js,mjs}`), 'web/src/*.{ts,tsx}'],
    ignores: ['web/*.{ts,tsx,js,mjs}'],
    rules: {
      'no-restricted-imports': ['error', { patterns: [climbing('^\\.\\./')] }],
    },
  },
  {
    files: ['web/**/*.{ts,tsx}', 'test/web/**/*.{ts,tsx}'],
    languageOptions: { globals: { ...globals.browser } },
    plugins: { 'react-hooks': reactHooks },
    rules: reactHooks.configs.recommended.rules,
  },
);

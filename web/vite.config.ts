import react from '@vitejs/plugin-react';
import { fileURLToPath } from 'node:url';
import { defineConfig, type Plugin } from 'vite';

const webRoot = fileURLToPath(new URL('.', import.meta.url));
/** react-router's export map always resolves to its development build; use the production one. */
const reactRouterProduction = fileURLToPath(
  new URL('../node_modules/react-router/dist/production/index.mjs', import.meta.url),
);
/** The Buffer calls of amazon-cognito-identity-js, without the general polyfill (see the file). */
const identityBuffer = fileURLToPath(new URL('./src/lib/auth/identity-buffer.ts', import.meta.url));

const identitySha256 = fileURLToPath(new URL('./src/lib/auth/identity-sha256.ts', import.meta.url));
const identityBigInteger = fileURLToPath(new URL('./src/lib/auth/identity-big-integer.ts', import.meta.url));

/** The identity library's own BigInteger module, replaced by one on the native BigInt (see the file). */
const identityLibraryBigInteger = (): Plugin => ({
  name: 'identity-library-big-integer',
  enforce: 'pre',
  resolveId(source, importer) {
    if (source === './BigInteger' && importer && /[\\/]amazon-cognito-identity-js[\\/]es[\\/]/.test(importer))
      return identityBigInteger;
    return null;
  },
});

/**
 * The sign-in page's scripts in one chunk rather than a dozen: the app's start (`main.tsx` and
 * all it imports statically: React, the router, the auth provider) with the small shared
 * modules the sign-in page needs. One gzip stream compresses them better than several (part of
 * the sign-in budget) and the page makes fewer requests; the entry chunk is left as the stub
 * that imports this one. Only static pieces of the sign-in: the setup wizard and the identity
 * library stay lazy.
 */
const SIGN_IN_PIECES =
  /[\\/]web[\\/]src[\\/](main|components[\\/](button|spinner|card|alert|text-field|layout[\\/]auth-layout)|components[\\/]sign-in[\\/](sign-in-flow|credentials-form|mfa-code-form|mfa-code-field|new-password-form|new-password-field|remember-device-form)|lib[\\/](sign-in[\\/]sign-in-messages|forms[\\/]use-validated-form|auth[\\/]types|use-document-title))\.tsx?$|[\\/]contracts[\\/](rules|groups)\.ts$/;

/**
 * Modules of the identity library's dependencies that only matter for what the portal does
 * not use: js-cookie (the library's CookieStorage) and the fetch polyfill (every browser the
 * build targets has fetch). Marked free of side effects, they are left out unless imported.
 */
const UNUSED_SIDE_EFFECTS = /node_modules\/(js-cookie|isomorphic-unfetch|unfetch)\//;

/**
 * The SPA build. Everything it needs is bundled or in `public/`: the site's CSP allows
 * scripts, styles, fonts and images from its own origin only. The manifest lets the bundle
 * benchmark follow which chunks each route loads.
 */
export default defineConfig(({ mode }) => ({
  root: webRoot,
  base: '/',
  plugins: [react(), identityLibraryBigInteger()],
  resolve: {
    alias: [
      { find: /^buffer$/, replacement: identityBuffer },
      { find: /^@aws-crypto\/sha256-js$/, replacement: identitySha256 },
      ...(mode === 'production' ? [{ find: /^react-router$/, replacement: reactRouterProduction }] : []),
    ],
  },
  // amazon-cognito-identity-js refers to Node's `global`.
  define: { global: 'globalThis' },
  build: {
    outDir: fileURLToPath(new URL('./dist', import.meta.url)),
    emptyOutDir: true,
    manifest: true,
    target: 'es2022',
    sourcemap: false,
    rolldownOptions: {
      treeshake: { moduleSideEffects: (id: string) => !UNUSED_SIDE_EFFECTS.test(id) },
      output: { codeSplitting: { groups: [{ name: 'sign-in', test: SIGN_IN_PIECES }] } },
    },
  },
}));

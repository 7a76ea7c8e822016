import react from '@vitejs/plugin-react';
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';

const webRoot = fileURLToPath(new URL('.', import.meta.url));
/** react-router's export map always resolves to its development build; use the production one. */
const reactRouterProduction = fileURLToPath(
  new URL('../node_modules/react-router/dist/production/index.mjs', import.meta.url),
);

/**
 * The SPA build. Everything it needs is bundled or in `public/`: the site's CSP allows
 * scripts, styles, fonts and images from its own origin only. The manifest lets the bundle
 * benchmark follow which chunks each route loads.
 */
export default defineConfig(({ mode }) => ({
  root: webRoot,
  base: '/',
  plugins: [react()],
  resolve: {
    alias: mode === 'production' ? [{ find: /^react-router$/, replacement: reactRouterProduction }] : [],
  },
  // amazon-cognito-identity-js and its `buffer` dependency refer to Node's `global`.
  define: { global: 'globalThis' },
  build: {
    outDir: fileURLToPath(new URL('./dist', import.meta.url)),
    emptyOutDir: true,
    manifest: true,
    target: 'es2022',
    sourcemap: false,
  },
}));

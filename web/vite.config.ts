import react from '@vitejs/plugin-react';
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';

const webRoot = fileURLToPath(new URL('.', import.meta.url));

/**
 * The SPA build. Everything it needs is bundled or in `public/`: the site's CSP allows
 * scripts, styles, fonts and images from its own origin only. The manifest lets the bundle
 * benchmark follow which chunks each route loads.
 */
export default defineConfig({
  root: webRoot,
  base: '/',
  plugins: [react()],
  // amazon-cognito-identity-js and its `buffer` dependency refer to Node's `global`.
  define: { global: 'globalThis' },
  build: {
    outDir: fileURLToPath(new URL('./dist', import.meta.url)),
    emptyOutDir: true,
    manifest: true,
    target: 'es2022',
    sourcemap: false,
  },
});

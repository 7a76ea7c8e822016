// First: zod's settings apply to schemas built after them.
import './lib/zod-config.ts';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './app/app.tsx';
import { ConfigError, loadConfig } from './lib/config.ts';
import './styles/index.css';

/**
 * A deploy replaces the hashed chunks, so a page opened before it cannot load a route it has
 * not visited yet. Vite reports that as `vite:preloadError`: reload once to get the new
 * build (the session survives in storage); a second failure shows the error boundary.
 */
const RELOADED_AT_KEY = 'chunkReloadAt';
window.addEventListener('vite:preloadError', (event) => {
  const last = Number(window.sessionStorage.getItem(RELOADED_AT_KEY) ?? 0);
  if (Date.now() - last < 30_000) return;
  window.sessionStorage.setItem(RELOADED_AT_KEY, String(Date.now()));
  event.preventDefault();
  window.location.reload();
});

const container = document.getElementById('root');
if (!container) throw new Error('The page has no #root element.');
const root = createRoot(container);

loadConfig()
  .then((config) => {
    document.title = config.productName;
    root.render(
      <StrictMode>
        <App config={config} />
      </StrictMode>,
    );
  })
  .catch((error: unknown) => {
    const message = error instanceof ConfigError ? error.message : 'The application could not start.';
    console.error(message);
    root.render(
      <main className="center-screen">
        <div className="alert alert-error" role="alert">
          <p className="alert-title">The portal is not available.</p>
          <p>{message}</p>
        </div>
      </main>,
    );
  });

import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './app/app.tsx';
import { ConfigError, loadConfig } from './lib/config.ts';
import './styles/index.css';

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

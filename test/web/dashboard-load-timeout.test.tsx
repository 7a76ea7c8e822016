import { act, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { embedOk, renderHome, stubBackend, VIEWS } from './support/dashboard-page.tsx';
import { resetSdk, sdk } from './support/embedding-sdk.ts';
import { testConfig } from './support/config.ts';
import { skip, useSkippableTimeouts } from './support/timers.ts';

vi.mock('#web/features/dashboard/components/sdk-loader.ts', () => import('./support/embedding-sdk.ts'));

afterEach(() => {
  resetSdk();
});

const LOCAL_EMBED_PAGES = 'https://localhost:4413';
const { cognitoEndpoint: _localOnly, ...deployedConfig } = testConfig;

/**
 * The home page with a dashboard frame whose content does not report by itself (the test says
 * what the frame does); the backend's calls.
 */
async function openSilentFrame(config = testConfig) {
  sdk.autoLoad = false;
  const calls = stubBackend(VIEWS, embedOk(60, LOCAL_EMBED_PAGES));
  renderHome('/home', config);
  await screen.findByTitle('QuickSight Analytics Dashboard');
  return calls;
}

describe('a dashboard frame that never reports its content', () => {
  it('turns the spinner into the error panel after 30 seconds, with Retry and what to do', async () => {
    useSkippableTimeouts();
    const calls = await openSilentFrame(deployedConfig);
    await skip(29_000);
    expect(screen.getByText('Loading dashboard...')).toBeInTheDocument();
    expect(screen.queryByText('Error Loading Dashboard')).not.toBeInTheDocument();

    await skip(1_000);
    const panel = screen.getByRole('alert');
    expect(panel).toHaveTextContent('Error Loading Dashboard');
    expect(panel).toHaveTextContent('Failed to load dashboard');
    expect(panel).toHaveTextContent('The dashboard did not finish loading within 30 seconds.');
    expect(panel).toHaveTextContent('Choose Retry to load it again. If it keeps failing, contact support.');
    expect(screen.getByRole('link', { name: 'contact support' })).toHaveAttribute('href', '/support');
    expect(screen.queryByText('Loading dashboard...')).not.toBeInTheDocument();
    // Outside local mode there is no certificate to accept.
    expect(panel).not.toHaveTextContent('certificate');

    sdk.autoLoad = true;
    await userEvent.setup().click(screen.getByRole('button', { name: 'Retry' }));
    expect(await screen.findByText('Powered by AWS QuickSight')).toBeInTheDocument();
    expect(calls.embed).toEqual(['inventory', 'inventory']);
  });

  it('in local mode, links to the embed pages whose certificate the browser has to accept', async () => {
    useSkippableTimeouts();
    await openSilentFrame();
    await skip(30_000);
    expect(screen.getByRole('alert')).toHaveTextContent(
      'In local mode the dashboards come from https://localhost:4413, which uses a self-signed certificate. If ' +
        'your browser does not trust it yet, open https://localhost:4413/, accept the certificate, then choose Retry.',
    );
    const link = screen.getByRole('link', { name: 'https://localhost:4413/' });
    expect(link).toHaveAttribute('href', 'https://localhost:4413/');
    expect(link).toHaveAttribute('target', '_blank');
  });

  it('in local mode, says so within seconds when the loaded frame stays silent (the browser refused the page)', async () => {
    useSkippableTimeouts();
    await openSilentFrame();
    act(() => sdk.change({ eventName: 'FRAME_LOADED' }));
    // A page that answers slowly on a busy machine is given 10 s.
    await skip(9_900);
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
    await skip(100);
    const panel = screen.getByRole('alert');
    expect(panel).toHaveTextContent('The dashboard frame opened, but the dashboard page in it did not answer.');
    expect(screen.getByRole('link', { name: 'https://localhost:4413/' })).toBeInTheDocument();
  });

  it('waits for the content of a loaded frame whose page answers', async () => {
    useSkippableTimeouts();
    await openSilentFrame();
    act(() => sdk.change({ eventName: 'FRAME_LOADED' }));
    window.dispatchEvent(
      new MessageEvent('message', { origin: LOCAL_EMBED_PAGES, data: { eventName: 'EXPERIENCE_INITIALIZED' } }),
    );
    await skip(10_000);
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
    expect(screen.getByText('Loading dashboard...')).toBeInTheDocument();
  });

  it('keeps the dashboard once the frame reports its content in time', async () => {
    useSkippableTimeouts();
    await openSilentFrame();
    await skip(20_000);
    act(() => sdk.emit({ eventName: 'CONTENT_LOADED', message: { title: 'Inventory' } }));
    await skip(20_000);
    await waitFor(() => expect(screen.getByText('Powered by AWS QuickSight')).toBeInTheDocument());
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
  });

  it('shows the frame error with the certificate advice in local mode, after the one automatic renewal', async () => {
    const calls = await openSilentFrame();
    act(() => sdk.emit({ eventName: 'ERROR_OCCURRED', message: { errorCode: 'Forbidden' } }));
    await waitFor(() => expect(calls.embed).toHaveLength(2));
    await screen.findByTitle('QuickSight Analytics Dashboard');
    act(() => sdk.emit({ eventName: 'ERROR_OCCURRED', message: { errorCode: 'Forbidden' } }));
    const panel = await screen.findByRole('alert');
    expect(panel).toHaveTextContent('The dashboard link has expired or was already used.');
    expect(screen.getByRole('link', { name: 'https://localhost:4413/' })).toBeInTheDocument();
  });
});

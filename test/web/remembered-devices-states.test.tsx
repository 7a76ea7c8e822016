import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { RememberedDevicesCard } from '#web/features/settings/components/remembered-devices-card.tsx';
import { fakeAuth, renderPage, userSession } from './support/render.tsx';

/** The remembered-devices list, empty and failed: what to do next, and the error with Retry. */
describe('remembered devices list states', () => {
  const CHROME_LINUX =
    'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/141.0.0.0 Safari/537.36';

  it('with no remembered device, says how to remember one', async () => {
    renderPage(<RememberedDevicesCard />, {
      auth: fakeAuth({ session: userSession(), listDevices: vi.fn(async () => []) }),
      path: '/mfa-settings',
    });
    expect(await screen.findByText(/No device is remembered\. .*tick Remember this device/)).toBeInTheDocument();
    expect(screen.queryByRole('list', { name: 'Remembered devices' })).not.toBeInTheDocument();
  });

  it('shows a failed load with Retry, not an empty list, and Retry loads it', async () => {
    const listDevices = vi
      .fn()
      .mockRejectedValueOnce(new Error('network down'))
      .mockResolvedValue([
        { key: 'k1', name: CHROME_LINUX, lastUsed: Date.UTC(2026, 10, 20), remembered: true, current: true },
      ]);
    renderPage(<RememberedDevicesCard />, {
      auth: fakeAuth({ session: userSession(), listDevices }),
      path: '/mfa-settings',
    });
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('Failed to load remembered devices');
    expect(screen.queryByText(/No device is remembered/)).not.toBeInTheDocument();
    await userEvent.setup().click(within(alert).getByRole('button', { name: 'Retry' }));
    const list = await screen.findByRole('list', { name: 'Remembered devices' });
    expect(list).toHaveTextContent('Chrome on Linux');
    expect(listDevices).toHaveBeenCalledTimes(2);
  });
});

import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { embedOk, renderHome, stubBackend, VIEWS } from './support/dashboard-page.tsx';
import { resetSdk, sdk } from './support/embedding-sdk.ts';

vi.mock('#web/features/dashboard/components/sdk-loader.ts', () => import('./support/embedding-sdk.ts'));

afterEach(() => {
  resetSdk();
});

async function showDashboard() {
  stubBackend(VIEWS, embedOk());
  renderHome();
  await screen.findByText('Powered by AWS QuickSight');
  const toolbar = screen.getByRole('toolbar', { name: 'Dashboard actions' });
  const button = (name: string) => within(toolbar).getByRole('button', { name });
  return { button, user: userEvent.setup() };
}

/** The reader changes something in the frame, which the SDK reports. */
const changeInFrame = () => act(() => sdk.emit({ eventName: 'PARAMETERS_CHANGED', message: {} }));

describe('Undo and Redo', () => {
  it('are off until the frame reports a change, then undo and redo it through the SDK', async () => {
    const { button, user } = await showDashboard();
    expect(button('Print')).toBeEnabled();
    expect(button('Undo')).toBeDisabled();
    expect(button('Redo')).toBeDisabled();

    changeInFrame();
    expect(button('Undo')).toBeEnabled();
    expect(button('Redo')).toBeDisabled();

    await user.click(button('Undo'));
    await waitFor(() => expect(sdk.calls.map((call) => call.method)).toEqual(['undo']));
    // The frame reports the content the undo brought back: not a change of the reader's.
    act(() => sdk.emit({ eventName: 'CONTENT_LOADED', message: { title: 'x' } }));
    expect(button('Undo')).toBeDisabled();
    expect(button('Redo')).toBeEnabled();

    await user.click(button('Redo'));
    await waitFor(() => expect(sdk.calls.map((call) => call.method)).toEqual(['undo', 'redo']));
    expect(button('Undo')).toBeEnabled();
    expect(button('Redo')).toBeDisabled();
  });

  it('counts a frame that shows new content of its own accord as a change, but not its first content', async () => {
    const { button } = await showDashboard();
    expect(button('Undo')).toBeDisabled();
    act(() => sdk.emit({ eventName: 'CONTENT_LOADED', message: { title: 'x' } }));
    expect(button('Undo')).toBeEnabled();
  });

  it('go off when the frame answers that there is nothing to undo', async () => {
    sdk.answer = { success: false, errorCode: 'NothingToUndo' };
    const { button, user } = await showDashboard();
    changeInFrame();
    await user.click(button('Undo'));
    await waitFor(() => expect(button('Undo')).toBeDisabled());
    expect(button('Redo')).toBeDisabled();
  });

  it('are off again after Reset', async () => {
    const { button, user } = await showDashboard();
    changeInFrame();
    changeInFrame();
    await user.click(button('Reset'));
    expect(button('Undo')).toBeDisabled();
    expect(button('Redo')).toBeDisabled();
  });
});

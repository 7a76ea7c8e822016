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

describe('the toolbar', () => {
  it('shows each action as an icon beside its visible label, the label naming the button', async () => {
    const { button } = await showDashboard();
    const refresh = screen.getByRole('button', { name: 'Refresh' });
    for (const control of [refresh, ...['Print', 'Reset', 'Undo', 'Redo', 'Subscribe'].map(button)]) {
      const icons = control.querySelectorAll('svg');
      expect(icons).toHaveLength(1);
      // Decoration only: hidden from assistive technology, and the text is the button's whole name.
      expect(icons[0]).toHaveAttribute('aria-hidden', 'true');
      expect(control.textContent?.trim()).toMatch(/^(Refresh|Print|Reset|Undo|Redo|Subscribe)$/);
    }
    // Refresh stands apart from the view actions' group.
    expect(
      within(screen.getByRole('toolbar', { name: 'Dashboard actions' })).queryByRole('button', { name: 'Refresh' }),
    ).toBeNull();
  });
});

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

describe('on a phone', () => {
  it('keeps the view actions in one menu, each saying why it is off, and runs the one chosen', async () => {
    vi.stubGlobal('matchMedia', (query: string) => ({
      matches: query === '(max-width: 480px)',
      media: query,
      addEventListener: () => undefined,
      removeEventListener: () => undefined,
    }));
    stubBackend(VIEWS, embedOk());
    renderHome();
    await screen.findByText('Powered by AWS QuickSight');
    const toolbar = screen.getByRole('toolbar', { name: 'Dashboard actions' });
    // No row of four buttons: one button opens the menu.
    expect(within(toolbar).queryByRole('button', { name: 'Print' })).not.toBeInTheDocument();
    const more = within(toolbar).getByRole('button', { name: 'More dashboard actions' });
    // Its visible label beside its icon.
    expect(more).toHaveTextContent(/^More$/);
    expect(more.querySelector('svg[aria-hidden="true"]')).not.toBeNull();
    const user = userEvent.setup();
    await user.click(more);
    const menu = screen.getByRole('menu', { name: 'More dashboard actions' });
    expect(
      within(menu)
        .getAllByRole('menuitem')
        .map((item) => item.textContent),
    ).toEqual([
      'Print',
      'Reset',
      'UndoNothing to undo: no change made in the dashboard yet',
      'RedoNothing to redo: no change undone',
      'Subscribe',
    ]);
    const undo = within(menu).getByRole('menuitem', { name: /Undo/ });
    expect(undo).toHaveAttribute('aria-disabled', 'true');
    expect(undo).toHaveAccessibleDescription('Nothing to undo: no change made in the dashboard yet');

    await user.click(within(menu).getByRole('menuitem', { name: 'Print' }));
    await waitFor(() => expect(sdk.calls.map((call) => call.method)).toEqual(['initiatePrint']));
    // After a change in the frame, Undo is on and carries no reason.
    changeInFrame();
    await user.click(more);
    const again = screen.getByRole('menu', { name: 'More dashboard actions' });
    expect(within(again).getByRole('menuitem', { name: 'Undo' })).not.toHaveAttribute('aria-disabled', 'true');
  });
});

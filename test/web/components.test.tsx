import { render, renderHook, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { describe, expect, it, vi } from 'vitest';
import { ConfirmDialog } from '#web/components/confirm-dialog.tsx';
import { Modal } from '#web/components/modal.tsx';
import { TextField } from '#web/components/text-field.tsx';
import { Tooltip } from '#web/components/tooltip.tsx';
import { useAuth } from '#web/lib/auth/auth-context.ts';

function ModalHarness({ onClose = () => undefined }: { onClose?: () => void }) {
  const [open, setOpen] = useState(false);
  return (
    <>
      <button onClick={() => setOpen(true)}>Open</button>
      <Modal
        open={open}
        title="Edit"
        onClose={() => {
          onClose();
          setOpen(false);
        }}
        footer={<button>Save</button>}
      >
        <input aria-label="Name" />
      </Modal>
    </>
  );
}

describe('Modal', () => {
  it('moves focus in, traps Tab and Shift+Tab, closes on Escape and returns focus', async () => {
    const onClose = vi.fn();
    render(<ModalHarness onClose={onClose} />);
    const user = userEvent.setup();
    const opener = screen.getByRole('button', { name: 'Open' });
    await user.click(opener);
    expect(screen.getByRole('dialog', { name: 'Edit' })).toHaveAttribute('aria-modal', 'true');
    const name = screen.getByLabelText('Name');
    expect(name).toHaveFocus();
    await user.tab();
    expect(screen.getByRole('button', { name: 'Save' })).toHaveFocus();
    await user.tab();
    expect(name).toHaveFocus();
    await user.tab({ shift: true });
    expect(screen.getByRole('button', { name: 'Save' })).toHaveFocus();
    await user.keyboard('{Escape}');
    expect(onClose).toHaveBeenCalledTimes(1);
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    expect(opener).toHaveFocus();
  });
});

describe('ConfirmDialog', () => {
  it('focuses Cancel first and confirms only on the confirm button', async () => {
    const onConfirm = vi.fn();
    const onCancel = vi.fn();
    render(
      <ConfirmDialog open title="Delete" confirmLabel="Delete" onConfirm={onConfirm} onCancel={onCancel}>
        Sure?
      </ConfirmDialog>,
    );
    expect(screen.getByRole('button', { name: 'Cancel' })).toHaveFocus();
    await userEvent.setup().click(screen.getByRole('button', { name: 'Delete' }));
    expect(onConfirm).toHaveBeenCalledTimes(1);
    expect(onCancel).not.toHaveBeenCalled();
  });
});

describe('TextField', () => {
  it('labels the input and ties the error to it', () => {
    render(<TextField label="Subject" error="Subject is a required field" />);
    const input = screen.getByLabelText('Subject');
    expect(input).toHaveAttribute('aria-invalid', 'true');
    expect(input).toHaveAccessibleDescription('Subject is a required field');
  });
});

describe('Tooltip', () => {
  it('describes its element and shows on keyboard focus', async () => {
    render(
      <Tooltip content="Refresh dashboard URL">
        <button>Refresh</button>
      </Tooltip>,
    );
    const tooltip = screen.getByRole('tooltip', { hidden: true });
    expect(tooltip).not.toBeVisible();
    await userEvent.setup().tab();
    expect(screen.getByRole('button', { name: 'Refresh' })).toHaveAccessibleDescription('Refresh dashboard URL');
    expect(tooltip).toBeVisible();
  });
});

describe('useAuth', () => {
  it('refuses to work outside its provider', () => {
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    expect(() => renderHook(() => useAuth())).toThrow('useAuth must be used within an AuthProvider');
  });
});

describe('Tooltip on touch', () => {
  it('does not open on a tap, which nothing would close, and still opens for the mouse and the keyboard', async () => {
    render(
      <>
        <Tooltip content="Refresh dashboard URL">
          <button>Refresh</button>
        </Tooltip>
        <button>Elsewhere</button>
      </>,
    );
    const tooltip = screen.getByRole('tooltip', { hidden: true });
    const button = screen.getByRole('button', { name: 'Refresh' });
    const user = userEvent.setup();
    await user.pointer([{ keys: '[TouchA]', target: button }]);
    expect(button).toHaveFocus();
    expect(tooltip).not.toBeVisible();
    await user.click(screen.getByRole('button', { name: 'Elsewhere' }));
    await user.hover(button);
    expect(tooltip).toBeVisible();
    await user.unhover(button);
    expect(tooltip).not.toBeVisible();
    await user.tab({ shift: true });
    expect(button).toHaveFocus();
    expect(tooltip).toBeVisible();
  });
});

import { screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import LoginPage from '#web/features/auth/routes/login-page.tsx';
import { readSessionEnd, recordSessionEnd, SESSION_END_KEY, SESSION_END_NOTE_MS } from '#web/lib/auth/session-end.ts';
import { renderPage } from './support/render.tsx';

const IDLE_TEXT = 'You were signed out after 30 minutes without activity.';
const ABSOLUTE_TEXT = 'Your session ended 12 hours after you signed in. Please sign in again.';

afterEach(() => window.sessionStorage.clear());

describe('the sign-in page after the portal signed someone out', () => {
  it('says the idle timeout ended the session', () => {
    recordSessionEnd({ reason: 'idle', minutes: 30 });
    renderPage(<LoginPage />, { path: '/login' });
    expect(screen.getByText(IDLE_TEXT).closest('[role="status"]')).toBeInTheDocument();
  });

  it('says the session limit ended the session', () => {
    recordSessionEnd({ reason: 'absolute', minutes: 720 });
    renderPage(<LoginPage />, { path: '/login' });
    expect(screen.getByText(ABSOLUTE_TEXT)).toBeInTheDocument();
  });

  it('says this browser was signed out because its device was forgotten, here or elsewhere', () => {
    recordSessionEnd({ reason: 'deviceForgotten', minutes: 0 });
    const { unmount } = renderPage(<LoginPage />, { path: '/login' });
    expect(
      screen.getByText(
        'You forgot this device, so this browser was signed out. Sign in again: a code from your authenticator app will be asked.',
      ),
    ).toBeInTheDocument();
    unmount();
    recordSessionEnd({ reason: 'deviceRefused', minutes: 0 });
    renderPage(<LoginPage />, { path: '/login' });
    expect(
      screen.getByText(
        'You were signed out because this browser was forgotten from your account, from another device or by an administrator. Please sign in again.',
      ),
    ).toBeInTheDocument();
  });

  it('says it once: a later visit, or a sign-out by the person, shows nothing', async () => {
    recordSessionEnd({ reason: 'idle', minutes: 30 });
    const { unmount } = renderPage(<LoginPage />, { path: '/login' });
    expect(screen.getByText(IDLE_TEXT)).toBeInTheDocument();
    await waitFor(() => expect(readSessionEnd()).toBeNull());
    unmount();
    renderPage(<LoginPage />, { path: '/login' });
    expect(screen.queryByText(IDLE_TEXT)).not.toBeInTheDocument();
  });

  it('ignores a note from long ago', () => {
    window.sessionStorage.setItem(
      SESSION_END_KEY,
      JSON.stringify({ reason: 'idle', minutes: 30, at: Date.now() - SESSION_END_NOTE_MS - 1_000 }),
    );
    renderPage(<LoginPage />, { path: '/login' });
    expect(screen.queryByText(IDLE_TEXT)).not.toBeInTheDocument();
  });
});

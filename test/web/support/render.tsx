import { render, type RenderResult } from '@testing-library/react';
import type { ReactNode } from 'react';
import { MemoryRouter, Route, Routes, useLocation } from 'react-router';
import { vi } from 'vitest';
import { Toaster } from '#web/components/toaster.tsx';
import { AuthContext, type AuthContextValue } from '#web/lib/auth/auth-context.ts';
import type { RuntimeConfig } from '#contracts/config.ts';
import type { AuthSession } from '#web/lib/auth/types.ts';
import { ConfigProvider } from '#web/lib/config-context.tsx';
import { testConfig } from './config.ts';

export const userSession = (overrides: Partial<AuthSession> = {}): AuthSession => ({
  username: '6f1c-sub',
  email: 'jane.doe@example.com',
  groups: ['Users'],
  accessToken: 'access-token',
  idToken: 'id-token',
  expiresAt: Date.now() + 3_600_000,
  ...overrides,
});

/** An auth context whose every call is a mock; pass what a test needs. */
export function fakeAuth(overrides: Partial<AuthContextValue> = {}): AuthContextValue {
  const session = overrides.session === undefined ? null : overrides.session;
  return {
    status: session ? 'signedIn' : 'signedOut',
    loading: false,
    session,
    signIn: vi.fn(),
    signInWithPasskey: vi.fn(),
    confirmTotpCode: vi.fn(),
    completeNewPassword: vi.fn(),
    signInMfaSetup: vi.fn(),
    cancelSignIn: vi.fn(async () => undefined),
    reloadSession: vi.fn(async () => session),
    getAccessToken: vi.fn(async () => 'access-token'),
    signOut: vi.fn(async () => undefined),
    signUp: vi.fn(),
    forgotPassword: vi.fn(),
    confirmForgotPassword: vi.fn(),
    rememberDevice: vi.fn(async () => undefined),
    listDevices: vi.fn(async () => []),
    forgetDevice: vi.fn(async () => undefined),
    preload: vi.fn(),
    ...overrides,
  };
}

/** Shows the current location so tests can assert navigation. */
function LocationProbe() {
  const location = useLocation();
  return <output data-testid="location">{`${location.pathname}${location.search}`}</output>;
}

export interface RenderOptions {
  readonly auth?: AuthContextValue;
  readonly path?: string;
  /** The route pattern(s) the element is mounted at (default: the path without its query). */
  readonly route?: string | readonly string[];
  /** @default testConfig */
  readonly config?: RuntimeConfig;
}

/** Renders a page the way the app does: config, auth, router and toaster. */
export function renderPage(
  element: ReactNode,
  { auth = fakeAuth(), path = '/', route, config = testConfig }: RenderOptions = {},
): RenderResult {
  return render(
    <ConfigProvider config={config}>
      <AuthContext.Provider value={auth}>
        <MemoryRouter initialEntries={[path]}>
          <Routes>
            {(typeof route === 'string' ? [route] : (route ?? [path.split('?')[0]!])).map((pattern) => (
              <Route key={pattern} path={pattern} element={element} />
            ))}
            <Route path="*" element={null} />
          </Routes>
          <LocationProbe />
        </MemoryRouter>
        <Toaster />
      </AuthContext.Provider>
    </ConfigProvider>,
  );
}

/** A fetch stub answering JSON. */
export const jsonResponse = (body: unknown, init: ResponseInit = {}) =>
  new Response(JSON.stringify(body), { status: 200, headers: { 'content-type': 'application/json' }, ...init });

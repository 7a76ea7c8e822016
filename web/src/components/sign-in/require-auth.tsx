import type { ReactNode } from 'react';
import { Navigate, useLocation } from 'react-router';
import { FullPageLoading } from '#web/components/layout/full-page-status.tsx';
import { useAuth } from '#web/lib/auth/auth-context.ts';
import { hasAnyGroup } from '#web/lib/sign-in/sign-in-messages.ts';

export interface RequireAuthProps {
  /** A session in none of these groups is treated as signed out. */
  readonly groups: readonly string[];
  /** Where visitors without such a session go; the intended location is remembered. */
  readonly loginPath: string;
  readonly children: ReactNode;
}

/** The protected-route wrapper: 'Loading...' while the session is checked. */
export function RequireAuth({ groups, loginPath, children }: RequireAuthProps) {
  const { status, session } = useAuth();
  const location = useLocation();
  if (status === 'loading') return <FullPageLoading />;
  if (!session || !hasAnyGroup(session.groups, groups)) {
    return <Navigate to={loginPath} replace state={{ from: `${location.pathname}${location.search}` }} />;
  }
  return <>{children}</>;
}

/** The location a protected route remembered, from the router state. */
export function rememberedLocation(state: unknown): unknown {
  return state && typeof state === 'object' && 'from' in state ? (state as { from: unknown }).from : undefined;
}

import { Suspense } from 'react';
import { useAuth } from '#web/lib/auth/auth-context.ts';
import { ResetPasswordCard } from '#web/components/sign-in/reset-password-card.tsx';
import { lazyPage } from '#web/lib/lazy-page.ts';
import { SettingsLayout } from '../components/settings-layout.tsx';

/**
 * Its own chunk, loaded with the page: the sign-in page's scripts list every chunk a page preloads, and the
 * subscriptions' API, schedule words and dialogs are not among what a sign-in needs.
 */
const SubscriptionsCard = lazyPage(() =>
  import('../components/subscriptions-card.tsx').then((module) => ({ default: module.SubscriptionsCard })),
);

/** /settings: the password reset card, and the dashboards the user has emailed to them. */
export default function SettingsPage() {
  const { session } = useAuth();
  return (
    <SettingsLayout title="Settings" description="Manage your account settings and set preferences.">
      <ResetPasswordCard {...(session?.email ? { lockedEmail: session.email } : {})} />
      <Suspense fallback={null}>
        <SubscriptionsCard />
      </Suspense>
    </SettingsLayout>
  );
}

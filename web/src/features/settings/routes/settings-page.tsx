import { useAuth } from '#web/lib/auth/auth-context.ts';
import { ResetPasswordCard } from '#web/components/sign-in/reset-password-card.tsx';
import { SettingsLayout } from '../components/settings-layout.tsx';
import { SubscriptionsCard } from '../components/subscriptions-card.tsx';

/** /settings: the password reset card, and the dashboards the user has emailed to them. */
export default function SettingsPage() {
  const { session } = useAuth();
  return (
    <SettingsLayout title="Settings" description="Manage your account settings and set preferences.">
      <ResetPasswordCard {...(session?.email ? { lockedEmail: session.email } : {})} />
      <SubscriptionsCard />
    </SettingsLayout>
  );
}

import { useAuth } from '#web/lib/auth/auth-context.ts';
import { ResetPasswordCard } from '#web/components/sign-in/reset-password-card.tsx';
import { SettingsLayout } from '../components/settings-layout.tsx';

/** /settings: the password reset card. */
export default function SettingsPage() {
  const { session } = useAuth();
  return (
    <SettingsLayout title="Settings" description="Manage your account settings and set preferences.">
      <ResetPasswordCard {...(session?.email ? { lockedEmail: session.email } : {})} />
    </SettingsLayout>
  );
}

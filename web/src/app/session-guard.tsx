import { useCallback } from 'react';
import { SESSION_DEFAULTS } from '#contracts/config.ts';
import { IdleWarningDialog } from '../components/idle-warning-dialog.tsx';
import { notify } from '../components/toaster.tsx';
import { useAuth } from '../lib/auth/auth-context.ts';
import { recordSessionEnd, sessionEndMessage } from '../lib/auth/session-end.ts';
import { useSessionTimeout, type SessionEndReason } from '../lib/auth/session-timeout.ts';
import type { AuthSession } from '../lib/auth/types.ts';
import { useConfig } from '../lib/config-context.tsx';

/**
 * Enforces the idle timeout and the absolute session lifetime of the runtime config for the
 * signed-in session: the warning dialog, then sign-out (which drops the dashboard frame) with
 * a note saying why: a toast where the person is, and a note the sign-in page shows.
 */
function SessionGuard({ session }: { readonly session: AuthSession }) {
  const { session: settings = SESSION_DEFAULTS, userPoolClientId } = useConfig();
  const { signOut } = useAuth();

  const onExpire = useCallback(
    (reason: SessionEndReason) => {
      const minutes = reason === 'idle' ? settings.idleTimeoutMinutes : settings.absoluteSessionMinutes;
      // Written before the sign-out, which sends the page to the sign-in at once.
      recordSessionEnd({ reason, minutes });
      void signOut().then(() => notify.info(sessionEndMessage(reason, minutes)));
    },
    [settings, signOut],
  );
  const { warningDeadline, staySignedIn } = useSessionTimeout({
    session,
    settings,
    clientId: userPoolClientId,
    onExpire,
  });

  return <IdleWarningDialog deadline={warningDeadline} onStay={staySignedIn} onSignOut={() => void signOut()} />;
}

/** Mounted only while someone is signed in, so the sign-in page does not load it. */
export default function SignedInSessionGuard() {
  const { session } = useAuth();
  return session ? <SessionGuard session={session} /> : null;
}

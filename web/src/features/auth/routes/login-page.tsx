import { useEffect, useState } from 'react';
import { Link, Navigate, useLocation, useNavigate } from 'react-router';
import { paths, safeReturnPath } from '#web/config/paths.ts';
import { Alert } from '#web/components/alert.tsx';
import { AuthLayout } from '#web/components/layout/auth-layout.tsx';
import { FullPageLoading } from '#web/components/layout/full-page-status.tsx';
import { useAuth } from '#web/lib/auth/auth-context.ts';
import { clearSessionEnd, readSessionEnd, sessionEndMessage } from '#web/lib/auth/session-end.ts';
import { useConfig } from '#web/lib/config-context.tsx';
import { useDocumentTitle } from '#web/lib/use-document-title.ts';
import { rememberedLocation } from '#web/components/sign-in/require-auth.tsx';
import { SignInFlow } from '#web/components/sign-in/sign-in-flow.tsx';
import { hasAnyGroup, USER_SIGN_IN_LABELS } from '#web/lib/sign-in/sign-in-messages.ts';
import { USER_PORTAL_GROUPS } from '#contracts/groups.ts';

const SIGN_IN_TITLE = 'Sign in';

/**
 * /login and /: the user portal's sign-in. After the portal signed someone out (idle timeout,
 * session limit) it says why, once.
 */
export default function LoginPage() {
  const { productName, marketingSiteUrl } = useConfig();
  const { status, session } = useAuth();
  const navigate = useNavigate();
  const location = useLocation();
  const destination = safeReturnPath(rememberedLocation(location.state), paths.home);
  // A session found on arrival goes straight on; one started here is finished by the flow.
  const [signingIn, setSigningIn] = useState(false);
  const [sessionEnd] = useState(() => readSessionEnd());
  useEffect(() => clearSessionEnd(), []);
  useDocumentTitle(SIGN_IN_TITLE);

  if (status === 'loading') return <FullPageLoading />;
  if (!signingIn && session && hasAnyGroup(session.groups, USER_PORTAL_GROUPS))
    return <Navigate to={destination} replace />;

  return (
    <AuthLayout productTitle={productName}>
      <SignInFlow
        requiredGroups={USER_PORTAL_GROUPS}
        privilege="user"
        productName={productName}
        labels={USER_SIGN_IN_LABELS}
        heading={
          <>
            <div>
              <h2>{SIGN_IN_TITLE}</h2>
              <p className="text-muted">Use your email address and password.</p>
            </div>
            {sessionEnd && !signingIn && (
              <Alert tone="info">{sessionEndMessage(sessionEnd.reason, sessionEnd.minutes)}</Alert>
            )}
          </>
        }
        extra={
          <div className="auth-links">
            <Link to={paths.changePassword}>Forgot password?</Link>
          </div>
        }
        footer={
          <div className="auth-links">
            <Link to={paths.signup}>Create an account</Link>
            {marketingSiteUrl && <a href={marketingSiteUrl}>Back to the marketing site</a>}
          </div>
        }
        onStart={() => setSigningIn(true)}
        onSignedIn={() => navigate(destination, { replace: true })}
      />
    </AuthLayout>
  );
}

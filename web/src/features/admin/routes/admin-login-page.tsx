import { useEffect, useRef, useState } from 'react';
import { Link, Navigate, useLocation, useNavigate } from 'react-router';
import { paths, safeReturnPath } from '#web/config/paths.ts';
import { Alert } from '#web/components/alert.tsx';
import { AuthLayout } from '#web/components/layout/auth-layout.tsx';
import { FullPageLoading } from '#web/components/layout/full-page-status.tsx';
import { useAuth } from '#web/lib/auth/auth-context.ts';
import { clearSessionEnd, readSessionEnd, sessionEndMessage } from '#web/lib/auth/session-end.ts';
import { useConfig } from '#web/lib/config-context.tsx';
import { rememberedLocation } from '#web/components/sign-in/require-auth.tsx';
import { SignInFlow } from '#web/components/sign-in/sign-in-flow.tsx';
import { accessDeniedMessage, hasAnyGroup } from '#web/lib/sign-in/sign-in-messages.ts';
import { ADMIN_PORTAL_GROUPS } from '#contracts/groups.ts';
import { ADMIN_HIGHLIGHTS, ADMIN_SIGN_IN_TEXTS, adminLoginSubtitle, adminPortalTitle } from '../admin-messages.ts';
import { useDocumentTitle } from '#web/lib/use-document-title.ts';

/**
 * /admin/login: the shared sign-in flow with the Admins group check. A signed-in admin goes
 * straight on; a session without admin rights (e.g. a portal user) is signed out here. After
 * the portal signed someone out (idle timeout, session limit) it says why, once.
 */
export default function AdminLoginPage() {
  useDocumentTitle('Admin Sign In', 'admin');
  const { productName } = useConfig();
  const { status, session, signOut } = useAuth();
  const navigate = useNavigate();
  const location = useLocation();
  const destination = safeReturnPath(rememberedLocation(location.state), paths.admin.users);
  const [denied, setDenied] = useState(false);
  // A session found on arrival goes straight on; one started here is finished by the flow.
  const [signingIn, setSigningIn] = useState(false);
  const entryChecked = useRef(false);
  const [sessionEnd] = useState(() => readSessionEnd());
  useEffect(() => clearSessionEnd(), []);
  const isAdmin = session !== null && hasAnyGroup(session.groups, ADMIN_PORTAL_GROUPS);

  // The session found on arrival; one started on this page is checked by the sign-in flow.
  useEffect(() => {
    if (status === 'loading' || entryChecked.current) return;
    entryChecked.current = true;
    if (status === 'signedIn' && !isAdmin) void signOut().then(() => setDenied(true));
  }, [status, isAdmin, signOut]);

  if (status === 'loading') return <FullPageLoading />;
  if (isAdmin && !signingIn) return <Navigate to={destination} replace />;

  return (
    <AuthLayout
      productTitle={adminPortalTitle(productName)}
      tagline={adminLoginSubtitle(productName)}
      highlights={ADMIN_HIGHLIGHTS}
    >
      <SignInFlow
        requiredGroups={ADMIN_PORTAL_GROUPS}
        privilege="admin"
        productName={productName}
        labels={{
          email: 'Email',
          password: 'Password',
          submit: ADMIN_SIGN_IN_TEXTS.submit,
          busy: ADMIN_SIGN_IN_TEXTS.busy,
        }}
        heading={
          <div>
            <h2>Admin Sign In</h2>
            {denied && <Alert tone="error">{accessDeniedMessage('admin')}</Alert>}
            {sessionEnd && !signingIn && (
              <Alert tone="info">{sessionEndMessage(sessionEnd.reason, sessionEnd.minutes)}</Alert>
            )}
          </div>
        }
        extra={
          <div className="auth-links">
            <Link to={paths.admin.forgotPassword}>{ADMIN_SIGN_IN_TEXTS.forgotPassword}</Link>
          </div>
        }
        redirectText={ADMIN_SIGN_IN_TEXTS.redirect}
        unsupportedStepMessage={ADMIN_SIGN_IN_TEXTS.unsupportedStep}
        onStart={() => setSigningIn(true)}
        onSignedIn={() => navigate(destination, { replace: true })}
      />
    </AuthLayout>
  );
}

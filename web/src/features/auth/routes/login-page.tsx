import { useState } from 'react';
import { Link, Navigate, useLocation, useNavigate } from 'react-router';
import { paths, safeReturnPath } from '../../../app/paths.ts';
import { AuthLayout } from '../../../components/layout/auth-layout.tsx';
import { FullPageLoading } from '../../../components/layout/full-page-status.tsx';
import { useAuth } from '../../../lib/auth/auth-context.ts';
import { useConfig } from '../../../lib/config-context.tsx';
import { rememberedLocation } from '../components/require-auth.tsx';
import { SignInFlow } from '../components/sign-in-flow.tsx';
import { hasAnyGroup, USER_SIGN_IN_LABELS } from '../sign-in-messages.ts';
import { USER_PORTAL_GROUPS } from '../user-groups.ts';

/** /login and /: the user portal's sign-in. */
export default function LoginPage() {
  const { productName, marketingSiteUrl } = useConfig();
  const { status, session } = useAuth();
  const navigate = useNavigate();
  const location = useLocation();
  const destination = safeReturnPath(rememberedLocation(location.state), paths.home);
  // A session found on arrival goes straight on; one started here is finished by the flow.
  const [signingIn, setSigningIn] = useState(false);

  if (status === 'loading') return <FullPageLoading />;
  if (!signingIn && session && hasAnyGroup(session.groups, USER_PORTAL_GROUPS)) return <Navigate to={destination} replace />;

  return (
    <AuthLayout productTitle={productName}>
      <SignInFlow
        requiredGroups={USER_PORTAL_GROUPS}
        privilege="user"
        productName={productName}
        labels={USER_SIGN_IN_LABELS}
        heading={
          <div>
            <h2>Sign in</h2>
            <p className="text-muted">Use your email address and password.</p>
          </div>
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

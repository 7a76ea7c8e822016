import { Link, useNavigate } from 'react-router';
import { paths } from '#web/config/paths.ts';
import { AuthLayout } from '#web/components/layout/auth-layout.tsx';
import { FullPageLoading } from '#web/components/layout/full-page-status.tsx';
import { notify } from '#web/components/toaster.tsx';
import { useAuth } from '#web/lib/auth/auth-context.ts';
import { useConfig } from '#web/lib/config-context.tsx';
import { ADMIN_HIGHLIGHTS, adminLoginSubtitle, adminPortalTitle } from '../admin-messages.ts';
import { AdminPasswordReset } from '../components/admin-password-reset.tsx';

const PASSWORD_CHANGED_MESSAGE = 'Your password has been changed. Sign in with your new password.';

/**
 * /admin/change-password (public): a new password through an emailed code. For a signed-in
 * admin the address is theirs and fixed; afterwards every session of the account starts
 * again with the new password.
 */
export default function AdminChangePasswordPage() {
  const { productName } = useConfig();
  const { status, session, signOut } = useAuth();
  const navigate = useNavigate();
  if (status === 'loading') return <FullPageLoading />;
  const email = session?.email;

  const done = async () => {
    if (email !== undefined) await signOut();
    notify.success(PASSWORD_CHANGED_MESSAGE);
    navigate(paths.admin.login, { replace: true });
  };

  return (
    <AuthLayout
      productTitle={adminPortalTitle(productName)}
      tagline={adminLoginSubtitle(productName)}
      highlights={ADMIN_HIGHLIGHTS}
    >
      <div className="stack">
        <div>
          <h2>Change Password</h2>
          <p className="text-muted">
            {email
              ? 'We will email a verification code to your address. Enter it with your new password.'
              : 'Enter your admin email address. We will email you a verification code to choose a new password.'}
          </p>
        </div>
        <AdminPasswordReset {...(email ? { lockedEmail: email } : {})} onReset={done} />
        <p className="auth-links">
          {email ? (
            <Link to={paths.admin.users}>Back to the admin portal</Link>
          ) : (
            <Link to={paths.admin.login}>Back to Admin Login</Link>
          )}
        </p>
      </div>
    </AuthLayout>
  );
}

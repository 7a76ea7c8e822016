import { Link, useNavigate } from 'react-router';
import { paths } from '#web/config/paths.ts';
import { AuthLayout } from '#web/components/layout/auth-layout.tsx';
import { notify } from '#web/components/toaster.tsx';
import { useConfig } from '#web/lib/config-context.tsx';
import { RESET_MESSAGES } from '#web/lib/sign-in/reset-messages.ts';
import { ADMIN_HIGHLIGHTS, adminLoginSubtitle, adminPortalTitle } from '../admin-messages.ts';
import { AdminPasswordReset } from '../components/admin-password-reset.tsx';
import { useDocumentTitle } from '#web/lib/use-document-title.ts';

/** /admin/forgot-password: admin account recovery by emailed code. */
export default function AdminForgotPasswordPage() {
  useDocumentTitle('Reset Password', 'admin');
  const { productName } = useConfig();
  const navigate = useNavigate();
  return (
    <AuthLayout
      productTitle={adminPortalTitle(productName)}
      tagline={adminLoginSubtitle(productName)}
      highlights={ADMIN_HIGHLIGHTS}
    >
      <div className="stack">
        <div>
          <h2>Admin Portal</h2>
          <p className="text-muted">Recover your admin account by providing your email address.</p>
        </div>
        <AdminPasswordReset
          onReset={() => {
            notify.success(RESET_MESSAGES.passwordReset);
            navigate(paths.admin.login, { replace: true });
          }}
        />
        <p className="auth-links">
          <Link to={paths.admin.login}>Back to Admin Login</Link>
        </p>
      </div>
    </AuthLayout>
  );
}

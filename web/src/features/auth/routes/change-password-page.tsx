import { Link } from 'react-router';
import { paths } from '#web/config/paths.ts';
import { AuthLayout } from '#web/components/layout/auth-layout.tsx';
import { useConfig } from '#web/lib/config-context.tsx';
import { useDocumentTitle } from '#web/lib/use-document-title.ts';
import { RESET_TITLE, ResetPasswordCard } from '#web/components/sign-in/reset-password-card.tsx';

/** /change-password: the Forgot password? link starts a reset here. */
export default function ChangePasswordPage() {
  const { productName } = useConfig();
  useDocumentTitle(RESET_TITLE);
  return (
    <AuthLayout productTitle={productName}>
      <div className="stack">
        <ResetPasswordCard bare />
        <p className="auth-links">
          <Link to={paths.login}>Back to Login</Link>
        </p>
      </div>
    </AuthLayout>
  );
}

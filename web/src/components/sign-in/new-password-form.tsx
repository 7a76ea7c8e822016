import { signInPasswordProblem } from '#contracts/rules.ts';
import { Alert } from '#web/components/alert.tsx';
import { Button } from '#web/components/button.tsx';
import { useRuleForm } from '#web/lib/forms/use-rule-form.ts';
import { SIGN_IN_MESSAGES } from '#web/lib/sign-in/sign-in-messages.ts';
import { useStepHeading } from './use-step-heading.ts';
import { NewPasswordField } from './new-password-field.tsx';

const NEW_PASSWORD_RULES = { password: signInPasswordProblem };

export interface NewPasswordFormProps {
  readonly onSubmit: (password: string) => Promise<void>;
  readonly onCancel: () => void;
  readonly error?: string | null;
}

/** The new-password-required step (an account whose password was set by an administrator). */
export function NewPasswordForm({ onSubmit, onCancel, error }: NewPasswordFormProps) {
  const { field, handleSubmit, errors, isSubmitting } = useRuleForm(NEW_PASSWORD_RULES, { password: '' });
  // This step replaces the credentials: focus starts at its heading.
  const heading = useStepHeading('new-password');

  return (
    <form
      className="stack"
      noValidate
      onSubmit={handleSubmit(({ password }) => onSubmit(password))}
      aria-labelledby="new-password-title"
    >
      <h2 id="new-password-title" ref={heading} tabIndex={-1}>
        Choose a new password
      </h2>
      <Alert tone="info">{SIGN_IN_MESSAGES.newPassword}</Alert>
      {error && <Alert tone="error">{error}</Alert>}
      <NewPasswordField label="New Password" error={errors.password} {...field('password')} />
      <div className="row">
        <Button type="submit" disabled={isSubmitting}>
          {isSubmitting ? 'Saving...' : 'Set Password'}
        </Button>
        <Button variant="secondary" onClick={onCancel} disabled={isSubmitting}>
          Cancel
        </Button>
      </div>
    </form>
  );
}

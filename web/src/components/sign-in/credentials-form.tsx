import type { ReactNode } from 'react';
import { signInEmailProblem, signInPasswordProblem } from '#contracts/rules.ts';
import { Button } from '#web/components/button.tsx';
import { TextField } from '#web/components/text-field.tsx';
import { useRuleForm } from '#web/lib/forms/use-rule-form.ts';

export interface SignInForm extends Record<string, string> {
  email: string;
  password: string;
}

const SIGN_IN_RULES = { email: signInEmailProblem, password: signInPasswordProblem };

export interface CredentialsLabels {
  readonly email: string;
  readonly password: string;
  readonly submit: string;
  readonly busy: string;
}

export interface CredentialsFormProps {
  readonly labels: CredentialsLabels;
  readonly onSubmit: (values: SignInForm) => Promise<void>;
  /** Called on the first focus: a good moment to fetch the identity library. */
  readonly onIntent?: () => void;
  /** Shown between the fields and the button (e.g. the Forgot password? link). */
  readonly extra?: ReactNode;
}

export function CredentialsForm({ labels, onSubmit, onIntent, extra }: CredentialsFormProps) {
  const { field, handleSubmit, errors, isSubmitting } = useRuleForm<SignInForm>(SIGN_IN_RULES, {
    email: '',
    password: '',
  });

  return (
    <form
      className="stack"
      noValidate
      onSubmit={handleSubmit((values) => onSubmit({ email: values.email.trim(), password: values.password }))}
      onFocus={onIntent}
    >
      <TextField label={labels.email} type="email" autoComplete="username" error={errors.email} {...field('email')} />
      <TextField
        label={labels.password}
        type="password"
        autoComplete="current-password"
        error={errors.password}
        {...field('password')}
      />
      {extra}
      <Button type="submit" block disabled={isSubmitting}>
        {isSubmitting ? labels.busy : labels.submit}
      </Button>
    </form>
  );
}

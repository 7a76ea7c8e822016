import { useState, type ReactNode } from 'react';
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
  /** Offers *Sign in with a passkey*, which needs the email only. */
  readonly onPasskey?: (email: string) => Promise<void>;
}

export function CredentialsForm({ labels, onSubmit, onIntent, extra, onPasskey }: CredentialsFormProps) {
  const { field, handleSubmit, errors, isSubmitting, values } = useRuleForm<SignInForm>(SIGN_IN_RULES, {
    email: '',
    password: '',
  });
  // *Sign in with a passkey* needs the email alone: its problem, or true while the passkey is asked for.
  const [passkey, setPasskey] = useState<string | boolean>(false);
  const signInWithPasskey = async (signIn: (email: string) => Promise<void>) => {
    const email = values.email.trim();
    const problem = signInEmailProblem(email);
    setPasskey(problem ?? true);
    if (!problem) await signIn(email).finally(() => setPasskey(false));
  };

  return (
    <form
      className="stack"
      noValidate
      onSubmit={(event) => {
        setPasskey(false);
        void handleSubmit((entered) => onSubmit({ email: entered.email.trim(), password: entered.password }))(event);
      }}
      onFocus={onIntent}
    >
      <TextField
        label={labels.email}
        type="email"
        autoComplete="username"
        error={errors.email ?? (typeof passkey === 'string' ? passkey : undefined)}
        {...field('email')}
      />
      <TextField
        label={labels.password}
        type="password"
        autoComplete="current-password"
        error={errors.password}
        {...field('password')}
      />
      {extra}
      <Button type="submit" block disabled={isSubmitting || passkey === true}>
        {isSubmitting ? labels.busy : labels.submit}
      </Button>
      {onPasskey && (
        <Button
          type="button"
          variant="secondary"
          block
          disabled={isSubmitting || passkey === true}
          onClick={() => void signInWithPasskey(onPasskey)}
        >
          Sign in with a passkey
        </Button>
      )}
    </form>
  );
}

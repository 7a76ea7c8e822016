import { useState } from 'react';
import {
  resetConfirmFormSchema,
  resetRequestFormSchema,
  type ResetConfirmForm as ResetConfirmValues,
} from '#contracts/auth-forms.ts';
import { Alert } from '#web/components/alert.tsx';
import { Button } from '#web/components/button.tsx';
import { TextField } from '#web/components/text-field.tsx';
import { useAuth } from '#web/lib/auth/auth-context.ts';
import { useSchemaForm } from '#web/lib/forms/use-schema-form.ts';
import { codeSentText } from '#web/lib/sign-in/reset-messages.ts';
import { NewPasswordField } from './new-password-field.tsx';

/** The words of a form: its field labels and its button, idle and busy. */
interface FormTexts<F extends string> {
  readonly labels: Readonly<Record<F, string>>;
  readonly submit: string;
  readonly busy: string;
}

export interface ResetRequestFormProps {
  readonly texts: FormTexts<'email'>;
  /** The signed-in person's address: prefilled and read-only (still focusable and read out). */
  readonly lockedEmail?: string;
  /** Asks for the code; a rejection is shown under the button, through `errorText`. */
  readonly onRequest: (email: string) => Promise<void>;
  readonly errorText: (failure: unknown) => string;
  /** The button stays disabled while the field is empty (the user portal's rule). */
  readonly disableWhenEmpty?: boolean;
}

/**
 * The first step of a password reset, the same in both portals: the address (a valid one,
 * checked before anything is sent), then the emailed code.
 */
export function ResetRequestForm({
  texts,
  lockedEmail,
  onRequest,
  errorText,
  disableWhenEmpty = false,
}: ResetRequestFormProps) {
  const auth = useAuth();
  const [error, setError] = useState<string | null>(null);
  const { field, handleSubmit, errors, isSubmitting, values } = useSchemaForm(resetRequestFormSchema, {
    email: lockedEmail ?? '',
  });

  const submit = async ({ email }: { email: string }) => {
    setError(null);
    try {
      await onRequest(email);
    } catch (failure) {
      setError(errorText(failure));
    }
  };

  return (
    <form className="stack" noValidate onSubmit={handleSubmit(submit)} onFocus={auth.preload}>
      <TextField
        label={texts.labels.email}
        type="email"
        autoComplete="email"
        placeholder={lockedEmail ?? 'name@company.com'}
        readOnly={lockedEmail !== undefined}
        error={errors.email}
        {...field('email')}
      />
      <div className="stack-tight">
        <Button type="submit" block disabled={isSubmitting || (disableWhenEmpty && !values.email.trim())}>
          {isSubmitting ? texts.busy : texts.submit}
        </Button>
        {error && (
          <p className="field-error" role="alert">
            {error}
          </p>
        )}
      </div>
    </form>
  );
}

export interface ResetConfirmFormProps {
  /** Where the code went. */
  readonly email: string;
  readonly texts: FormTexts<'code' | 'password'>;
  /** Sets the new password; a rejection is shown above the fields, through `errorText`. */
  readonly onConfirm: (values: ResetConfirmValues) => Promise<void>;
  readonly errorText: (failure: unknown) => string;
}

/** The second step of a password reset, the same in both portals: the emailed code and a new password. */
export function ResetConfirmForm({ email, texts, onConfirm, errorText }: ResetConfirmFormProps) {
  const auth = useAuth();
  const [error, setError] = useState<string | null>(null);
  const { field, handleSubmit, errors, isSubmitting } = useSchemaForm(resetConfirmFormSchema, {
    code: '',
    password: '',
  });

  const submit = async (values: ResetConfirmValues) => {
    setError(null);
    try {
      await onConfirm(values);
    } catch (failure) {
      setError(errorText(failure));
    }
  };

  return (
    <form className="stack" noValidate onSubmit={handleSubmit(submit)} onFocus={auth.preload}>
      <Alert tone="info">{codeSentText(email)}</Alert>
      {error && <Alert tone="error">{error}</Alert>}
      <TextField
        label={texts.labels.code}
        inputMode="numeric"
        autoComplete="one-time-code"
        error={errors.code}
        {...field('code')}
      />
      <NewPasswordField label={texts.labels.password} error={errors.password} {...field('password')} />
      <Button type="submit" block disabled={isSubmitting}>
        {isSubmitting ? texts.busy : texts.submit}
      </Button>
    </form>
  );
}

import { TextField, type TextFieldProps } from '#web/components/text-field.tsx';

const PASSWORD_RULES_HINT = 'At least 8 characters with a lowercase letter, an uppercase letter, a digit and a symbol.';

export type NewPasswordFieldProps = Omit<TextFieldProps, 'type' | 'autoComplete' | 'hint'>;

/** A password the person chooses now: masked, offered to password managers, with the rules as its hint. */
export function NewPasswordField(props: NewPasswordFieldProps) {
  return <TextField type="password" autoComplete="new-password" hint={PASSWORD_RULES_HINT} {...props} />;
}

import { useId } from 'react';
import { MFA_CODE_PATTERN, SIGN_IN_FIELD_MESSAGES, sanitizeMfaCode } from '#contracts/rules.ts';
import { TextField } from '#web/components/text-field.tsx';

export interface MfaCodeFieldProps {
  readonly label: string;
  readonly value: string;
  readonly onChange: (code: string) => void;
  /** Show the format message once the person has left the field with a partial code. */
  readonly touched: boolean;
  readonly onBlur: () => void;
  readonly disabled?: boolean;
}

/**
 * Digits only, truncated to six, as every MFA code input of the specs. No maxLength: the
 * browser would cut a pasted '123 456' to '123 45' before the non-digits are dropped.
 */
export function MfaCodeField({ label, value, onChange, touched, onBlur, disabled }: MfaCodeFieldProps) {
  const id = useId();
  const invalid = touched && value.length > 0 && value.length !== 6;
  return (
    <TextField
      id={id}
      label={label}
      value={value}
      inputMode="numeric"
      autoComplete="one-time-code"
      pattern="[0-9]*"
      placeholder="000000"
      disabled={disabled}
      error={invalid ? SIGN_IN_FIELD_MESSAGES.mfaCode : undefined}
      onChange={(event) => onChange(sanitizeMfaCode(event.target.value))}
      onBlur={onBlur}
    />
  );
}

export const isCompleteMfaCode = (code: string) => MFA_CODE_PATTERN.test(code);

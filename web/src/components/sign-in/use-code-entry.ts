import { useState, type FormEvent } from 'react';
import { isCompleteMfaCode } from './mfa-code-field.tsx';

/**
 * The state of a form that proves an authenticator code (setup and replacement): the field's
 * props, whether the code is complete, and a submit that runs `verify` once per complete code.
 * A refused code clears the field and shows `failureText(failure)`.
 */
export function useCodeEntry(verify: (code: string) => Promise<void>, failureText: (failure: unknown) => string) {
  const [code, setCode] = useState('');
  const [touched, setTouched] = useState(false);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setTouched(true);
    if (!isCompleteMfaCode(code) || busy) return;
    setBusy(true);
    setError(null);
    try {
      await verify(code);
    } catch (failure) {
      setError(failureText(failure));
      setCode('');
      setTouched(false);
    } finally {
      setBusy(false);
    }
  };

  return {
    field: { value: code, onChange: setCode, touched, onBlur: () => setTouched(true), disabled: busy },
    ready: isCompleteMfaCode(code),
    busy,
    error,
    submit,
  };
}

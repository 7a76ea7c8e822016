import { CognitoServiceError } from './errors.ts';

/** The pool's policy (spec: at least 8 characters with lowercase, uppercase, digit and symbol). */
const RULES: readonly { test: (password: string) => boolean; message: string }[] = [
  { test: (password) => [...password].length >= 8, message: 'Password not long enough' },
  { test: (password) => /[a-z]/.test(password), message: 'Password must have lowercase characters' },
  { test: (password) => /[A-Z]/.test(password), message: 'Password must have uppercase characters' },
  { test: (password) => /[0-9]/.test(password), message: 'Password must have numeric characters' },
  // Cognito's symbol set: ^ $ * . [ ] { } ( ) ? " ! @ # % & / \ , > < ' : ; | _ ~ ` = + - and space.
  {
    test: (password) => /[\^$*.[\]{}()?"!@#%&/\\,><':;|_~`=+\- ]/.test(password),
    message: 'Password must have symbol characters',
  },
];

export function assertPasswordConforms(password: string): void {
  const broken = RULES.find((rule) => !rule.test(password));
  if (broken) {
    throw new CognitoServiceError(
      'InvalidPasswordException',
      `Password did not conform with policy: ${broken.message}`,
    );
  }
}

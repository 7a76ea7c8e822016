/**
 * Form schemas of the sign-in, sign-up, password-reset and MFA-code screens, built with
 * `zod/mini` from the same rules as `fields.ts`. These screens are the first thing a visitor
 * loads, so they avoid the full zod build (about 20 KB gzip) and stay within the sign-in
 * budget; zod/mini schemas are ordinary zod schemas to every consumer.
 */
import * as z from 'zod/mini';
import { MAX_EMAIL_LENGTH, MESSAGES, MFA_CODE_PATTERN, SIMPLE_EMAIL_PATTERN } from './rules.ts';

export const emailField = z.string().check(
  z.trim(),
  z.minLength(1, MESSAGES.emailRequired),
  z.maxLength(MAX_EMAIL_LENGTH, MESSAGES.emailInvalid),
  z.regex(SIMPLE_EMAIL_PATTERN, MESSAGES.emailInvalid),
);

export const passwordField = z
  .string()
  .check(z.minLength(1, MESSAGES.passwordRequired), z.minLength(8, MESSAGES.passwordMin));

export const mfaCodeField = z.string().check(z.regex(MFA_CODE_PATTERN, MESSAGES.mfaCode));

export const signInFormSchema = z.object({ email: emailField, password: passwordField });
export type SignInForm = z.infer<typeof signInFormSchema>;

export const signUpFormSchema = z
  .object({
    email: emailField,
    password: passwordField,
    confirmPassword: z.string().check(z.minLength(1, MESSAGES.confirmRequired)),
  })
  .check(
    z.refine((form) => form.confirmPassword === '' || form.password === form.confirmPassword, {
      message: MESSAGES.passwordsMustMatch,
      path: ['confirmPassword'],
    }),
  );
export type SignUpForm = z.infer<typeof signUpFormSchema>;

/** /verify-reset-code and the admin reset step: the emailed code and the new password. */
export const resetConfirmFormSchema = z.object({
  code: z.string().check(z.trim(), z.minLength(1, MESSAGES.codeRequired)),
  password: passwordField,
});
export type ResetConfirmForm = z.infer<typeof resetConfirmFormSchema>;

/** The password-reset request (Settings card, /change-password, admin forgot password). */
export const resetRequestFormSchema = z.object({ email: emailField });
export type ResetRequestForm = z.infer<typeof resetRequestFormSchema>;

export const mfaCodeFormSchema = z.object({ code: mfaCodeField });
export type MfaCodeForm = z.infer<typeof mfaCodeFormSchema>;

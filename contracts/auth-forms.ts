/**
 * Form schemas of the sign-up, password-reset and MFA-code screens, built with `zod/mini`
 * from the rules of `rules.ts` (the sign-in page applies the same rule functions directly,
 * to load no schema library at all). zod/mini schemas are ordinary zod schemas to every
 * consumer.
 */
import * as z from 'zod/mini';
import { MESSAGES } from './messages.ts';
import { signInEmailProblem, signInPasswordProblem } from './rules.ts';

/** A check applying one plain `problem` function of `rules.ts`. */
const fromRule = (problem: (value: string) => string | undefined) =>
  z.superRefine<string>((value, ctx) => {
    const message = problem(value);
    if (message) ctx.addIssue({ code: 'custom', message, input: value });
  });

export const emailField = z.string().check(z.trim(), fromRule(signInEmailProblem));

const passwordField = z.string().check(fromRule(signInPasswordProblem));

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

/**
 * Field rules with the exact messages of the specs. The SPA's forms and the handlers'
 * request schemas are built from these, so a rule cannot differ between browser and server.
 * The plain values live in `rules.ts` and `messages.ts` (re-exported here); `auth-forms.ts` builds the
 * sign-in screens' schemas from them with the small `zod/mini` build.
 */
import * as z from 'zod';
import { MESSAGES, PASSWORD_REQUIREMENTS } from './messages.ts';
import { MFA_CODE_PATTERN, emailAddressProblem } from './rules.ts';

export { MESSAGES, PASSWORD_REQUIREMENTS, SPECIAL_CHARACTERS, dashboardIdExistsMessage } from './messages.ts';
export { EMAIL_PROBLEMS, MAX_EMAIL_LENGTH, MFA_CODE_PATTERN, emailAddressProblem, sanitizeMfaCode } from './rules.ts';

/**
 * An email field with the shared rule of `emailAddressProblem` and a form's own messages.
 * A refused address gets two issues: the form's message first (what a form shows) and why
 * (which a 400 answer carries as its `reason`).
 */
export const emailAddress = (messages: { readonly required: string; readonly invalid: string }) =>
  z
    .string()
    .trim()
    .superRefine((value, ctx) => {
      if (value === '') {
        ctx.addIssue({ code: 'custom', message: messages.required });
        return;
      }
      const problem = emailAddressProblem(value);
      if (problem === undefined) return;
      ctx.addIssue({ code: 'custom', message: messages.invalid });
      ctx.addIssue({ code: 'custom', message: problem });
    });

/** Sign-in and sign-up email of the user portal. */
export const signInEmail = emailAddress({ required: MESSAGES.emailRequired, invalid: MESSAGES.emailInvalid });

/** The sign-in forms only ask for length; the identity provider enforces the policy. */
export const signInPassword = z.string().min(1, MESSAGES.passwordRequired).min(8, MESSAGES.passwordMin);

/** Digits only, exactly six. */
export const mfaCode = z.string().regex(MFA_CODE_PATTERN, MESSAGES.mfaCode);

/** Admin-side email of a target account. */
export const adminEmail = emailAddress({ required: MESSAGES.adminEmailRequired, invalid: MESSAGES.adminEmailInvalid });

/** Full password rules for accounts an admin creates or updates. */
export const strongPassword = z
  .string()
  .min(1, MESSAGES.adminPasswordRequired)
  .max(256, 'Password must be at most 256 characters')
  .superRefine((value, ctx) => {
    for (const rule of PASSWORD_REQUIREMENTS) {
      if (!rule.test(value)) {
        ctx.addIssue({ code: 'custom', message: rule.message });
        return;
      }
    }
  });

/** Only http(s) links may be stored: they are opened in a new tab. */
export const dashboardLink = z
  .string()
  .trim()
  .min(1, MESSAGES.dashboardLinkRequired)
  .max(2048, MESSAGES.dashboardLinkInvalid)
  .refine((value) => {
    try {
      const url = new URL(value);
      return url.protocol === 'https:' || url.protocol === 'http:';
    } catch {
      return false;
    }
  }, MESSAGES.dashboardLinkInvalid);

/** QuickSight dashboard ids: letters, digits, hyphen and underscore, up to 512. */
export const dashboardId = z
  .string()
  .trim()
  .min(1, MESSAGES.dashboardIdRequired)
  .max(512, 'Dashboard ID must be at most 512 characters')
  .regex(/^[\w-]+$/, 'Dashboard ID may contain only letters, digits, hyphens and underscores');

export const dashboardName = z
  .string()
  .trim()
  .min(1, MESSAGES.dashboardNameRequired)
  .max(200, 'Dashboard Name must be at most 200 characters');

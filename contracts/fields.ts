/**
 * Field rules with the exact messages of the specs. The SPA's forms and the handlers'
 * request schemas are built from these, so a rule cannot differ between browser and server.
 * The plain values live in `rules.ts` (re-exported here); `auth-forms.ts` builds the
 * sign-in screens' schemas from them with the small `zod/mini` build.
 */
import { z } from 'zod';
import { MAX_EMAIL_LENGTH, MESSAGES, MFA_CODE_PATTERN, PASSWORD_REQUIREMENTS, SIMPLE_EMAIL_PATTERN } from './rules.ts';

export {
  MAX_EMAIL_LENGTH,
  MESSAGES,
  MFA_CODE_PATTERN,
  PASSWORD_REQUIREMENTS,
  SIMPLE_EMAIL_PATTERN,
  SPECIAL_CHARACTERS,
  dashboardIdExistsMessage,
  sanitizeMfaCode,
} from './rules.ts';

/** Sign-in and sign-up email of the user portal. */
export const signInEmail = z
  .string()
  .trim()
  .min(1, MESSAGES.emailRequired)
  .max(MAX_EMAIL_LENGTH, MESSAGES.emailInvalid)
  .regex(SIMPLE_EMAIL_PATTERN, MESSAGES.emailInvalid);

/** The sign-in forms only ask for length; the identity provider enforces the policy. */
export const signInPassword = z.string().min(1, MESSAGES.passwordRequired).min(8, MESSAGES.passwordMin);

/** Digits only, exactly six. */
export const mfaCode = z.string().regex(MFA_CODE_PATTERN, MESSAGES.mfaCode);

/** Admin-side email of a target account. */
export const adminEmail = z
  .string()
  .trim()
  .min(1, MESSAGES.adminEmailRequired)
  .max(MAX_EMAIL_LENGTH, MESSAGES.adminEmailInvalid)
  .regex(SIMPLE_EMAIL_PATTERN, MESSAGES.adminEmailInvalid);

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

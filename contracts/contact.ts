import * as z from 'zod';
import { MESSAGES, emailAddress } from './fields.ts';

export const CONTACT_PRIORITIES = ['high', 'normal', 'low'] as const;
export const CONTACT_LIMITS = { subject: 200, message: 5000, perUserPerHour: 5 } as const;

const noLineBreaks = (value: string) => !/[\r\n]/.test(value);

/** POST body of the contact function; the form maps its Description field to `message`. */
export const contactRequestSchema = z.object({
  email: emailAddress({ required: MESSAGES.contactEmail, invalid: MESSAGES.contactEmail }),
  subject: z
    .string()
    .trim()
    .min(1, MESSAGES.contactSubject)
    .max(CONTACT_LIMITS.subject, `Subject must be at most ${CONTACT_LIMITS.subject} characters`)
    .refine(noLineBreaks, 'Subject must be on one line'),
  message: z
    .string()
    .trim()
    .min(1, MESSAGES.contactDescription)
    .max(CONTACT_LIMITS.message, `Description must be at most ${CONTACT_LIMITS.message} characters`),
  priority: z.union([z.enum(CONTACT_PRIORITIES), z.literal('')]).optional(),
});
export type ContactRequest = z.infer<typeof contactRequestSchema>;

export const contactResponseSchema = z.object({ message: z.string() });

import { z } from 'zod';
import {
  CONTACT_PRIORITIES,
  contactRequestSchema,
  contactResponseSchema,
  type ContactRequest,
} from '#contracts/contact.ts';
import type { ApiClient } from '#web/lib/api.ts';

export const CONTACT_MESSAGES = {
  failed: 'Something went wrong! Please check your internet connection.',
} as const;

/** The support form: the contract's rules, with Description as the form's name for `message`. */
export const supportFormSchema = z.object({
  email: contactRequestSchema.shape.email,
  subject: contactRequestSchema.shape.subject,
  priority: z.enum(CONTACT_PRIORITIES),
  description: contactRequestSchema.shape.message,
});
export type SupportForm = z.input<typeof supportFormSchema>;

export async function sendContactMessage(client: ApiClient, url: string, form: SupportForm): Promise<string> {
  const body: ContactRequest = {
    email: form.email,
    subject: form.subject,
    priority: form.priority,
    message: form.description,
  };
  const answer = await client.request(url, { body, schema: contactResponseSchema });
  return answer.message;
}

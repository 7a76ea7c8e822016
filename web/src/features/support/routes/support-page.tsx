import { zodResolver } from '@hookform/resolvers/zod';
import { useForm } from 'react-hook-form';
import { CONTACT_PRIORITIES } from '#contracts/contact.ts';
import { Button } from '#web/components/button.tsx';
import { Card } from '#web/components/card.tsx';
import { PageHeader } from '#web/components/layout/page-header.tsx';
import { Select } from '#web/components/select.tsx';
import { Textarea } from '#web/components/textarea.tsx';
import { TextField } from '#web/components/text-field.tsx';
import { notify } from '#web/components/toaster.tsx';
import { useAuth } from '#web/lib/auth/auth-context.ts';
import { useConfig } from '#web/lib/config-context.tsx';
import { useApiClient } from '#web/lib/use-clients.ts';
import { CONTACT_MESSAGES, sendContactMessage, supportFormSchema, type SupportForm } from '../api/contact.ts';

const PRIORITY_OPTIONS = CONTACT_PRIORITIES.map((priority) => ({ value: priority, label: priority }));
const DESCRIPTION_ROWS = 10;

/** /support: the contact form; the message is emailed to the support team. */
export default function SupportPage() {
  const { functions } = useConfig();
  const { session } = useAuth();
  const client = useApiClient();
  const email = session?.email ?? '';
  const blank: SupportForm = { email, subject: '', priority: 'normal', description: '' };
  const {
    register,
    handleSubmit,
    reset,
    formState: { errors, isSubmitting },
  } = useForm<SupportForm>({ resolver: zodResolver(supportFormSchema), defaultValues: blank });

  const submit = async (form: SupportForm) => {
    try {
      const message = await sendContactMessage(client, functions.contact, form);
      notify.success(message);
      reset(blank);
    } catch (error) {
      console.error('Failed to send email:', error instanceof Error ? error.message : error);
      notify.error(CONTACT_MESSAGES.failed);
    }
  };

  return (
    <>
      <PageHeader title="Support" description="Questions about your dashboards or your account? Send us a message." />
      <Card title="Contact Support" className="support-card">
        <form className="stack" noValidate onSubmit={handleSubmit(submit)}>
          <TextField label="Email Address" type="email" readOnly error={errors.email?.message} {...register('email')} />
          <TextField label="Subject" error={errors.subject?.message} {...register('subject')} />
          <Select
            label="Priority"
            options={PRIORITY_OPTIONS}
            error={errors.priority?.message}
            {...register('priority')}
          />
          <Textarea
            label="Description"
            rows={DESCRIPTION_ROWS}
            error={errors.description?.message}
            {...register('description')}
          />
          <div>
            <Button type="submit" disabled={isSubmitting}>
              {isSubmitting ? 'Sending...' : 'Submit'}
            </Button>
          </div>
        </form>
      </Card>
    </>
  );
}

import { zodResolver } from '@hookform/resolvers/zod';
import { useForm } from 'react-hook-form';
import { CONTACT_LIMITS, contactMessageSchema, type ContactMessageInput } from '@shared/contact';
import { InputField, TextareaField } from '@/components/form/input-field';
import { Button } from '@/components/ui/button';
import { toastFirstError } from '@/lib/form-errors';
import { useSendContactMessage } from '../api/send-message';

const ORDER = ['name', 'email', 'subject', 'message'] as const;
const MESSAGE_HINT = `Up to ${CONTACT_LIMITS.messageMax} characters.`;
const EMPTY: ContactMessageInput = { name: '', email: '', subject: '', message: '' };

/** Checked in the browser with the same schema the server applies; cleared once the server has stored it. */
export function ContactForm() {
  const form = useForm<ContactMessageInput>({ resolver: zodResolver(contactMessageSchema), defaultValues: EMPTY });
  const send = useSendContactMessage(() => form.reset(EMPTY));
  const { errors } = form.formState;

  return (
    <form
      aria-label="Send us a message"
      // Sent before the script has loaded (boot.ts holds it when it is there first), it posts to its page: what was
      // typed never goes into an address.
      method="post"
      noValidate
      className="space-y-4"
      onSubmit={form.handleSubmit(
        (values) => send.mutate(values),
        (errs) => toastFirstError(errs, ORDER),
      )}
    >
      <div className="grid gap-4 sm:grid-cols-2">
        <InputField
          id="contact-name"
          label="Name"
          error={errors.name?.message}
          autoComplete="name"
          maxLength={CONTACT_LIMITS.nameMax}
          required
          {...form.register('name')}
        />
        <InputField
          id="contact-email"
          label="Email"
          error={errors.email?.message}
          type="email"
          autoComplete="email"
          maxLength={CONTACT_LIMITS.emailMax}
          required
          {...form.register('email')}
        />
      </div>
      <InputField
        id="contact-subject"
        label="Subject"
        error={errors.subject?.message}
        maxLength={CONTACT_LIMITS.subjectMax}
        required
        {...form.register('subject')}
      />
      <TextareaField
        id="contact-message"
        label="Message"
        error={errors.message?.message}
        hint={MESSAGE_HINT}
        rows={6}
        maxLength={CONTACT_LIMITS.messageMax}
        required
        {...form.register('message')}
      />
      <Button type="submit" className="w-full sm:w-auto" disabled={send.isPending}>
        {send.isPending ? 'Sending...' : 'Send Message'}
      </Button>
    </form>
  );
}

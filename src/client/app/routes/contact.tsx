import { ContactCards } from '@/features/contact/components/contact-cards';
import { ContactForm } from '@/features/contact/components/contact-form';
import { PageMeta } from '@/components/page-meta';
import { PageHero } from '@/features/public/components/page-sections';

export function Component() {
  return (
    <>
      <PageMeta
        title="Contact Us — RuralRoute"
        description="Questions, ideas or a problem with a delivery? E-mail or call the RuralRoute team, or send us a message with the contact form."
      />
      <PageHero
        title="Contact Us"
        lead="Questions, ideas or a problem with a delivery? We read every message and reply by e-mail."
      />
      <section aria-label="Ways to reach us" className="px-4 pt-12">
        <div className="mx-auto max-w-5xl">
          <ContactCards />
        </div>
      </section>
      <section aria-labelledby="contact-form-heading" className="px-4 py-12">
        <div className="mx-auto max-w-3xl rounded-lg border bg-card p-6 shadow-sm md:p-8">
          <h2 id="contact-form-heading" className="text-2xl font-bold">
            Send Us a Message
          </h2>
          <p className="mt-2 text-muted-foreground">All fields are required.</p>
          <div className="mt-6">
            <ContactForm />
          </div>
        </div>
      </section>
    </>
  );
}

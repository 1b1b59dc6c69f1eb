import { FaqAccordion } from '@/features/public/components/faq-accordion';
import { PageMeta } from '@/components/page-meta';
import { PageHero } from '@/features/public/components/page-sections';

export function Component() {
  return (
    <>
      <PageMeta
        title="Frequently Asked Questions — RuralRoute"
        description="Answers about RuralRoute: how it works, fees, payments, problems, member verification, cancelling, which items can be delivered and how to become a driver."
      />
      <PageHero
        title="Frequently Asked Questions"
        lead="Everything neighbours usually ask before their first ride or delivery. Something missing? Contact us."
      />
      <section aria-label="Questions and answers" className="px-4 py-12 md:py-16">
        <div className="mx-auto max-w-3xl">
          <FaqAccordion />
        </div>
      </section>
    </>
  );
}

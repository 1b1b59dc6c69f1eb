import { PageMeta } from '@/components/page-meta';
import { PageHero } from '@/features/public/components/page-sections';
import { PricingPlans } from '@/features/public/components/pricing-plans';

export function Component() {
  return (
    <>
      <PageMeta
        title="Pricing — RuralRoute"
        description="RuralRoute plans: Free at $0 forever, Plus at $4.99 per month, and Community at $49.99 per year, a 17% saving."
      />
      <PageHero
        title="Simple, Honest Pricing"
        lead="Start free and stay free for as long as you like. Upgrade when RuralRoute becomes part of your routine."
      />
      <section aria-label="Plans" className="px-4 py-12 md:py-16">
        <div className="mx-auto max-w-6xl">
          <PricingPlans />
          <p className="mt-8 text-center text-muted-foreground">
            Every plan starts with a free account. No card is needed to sign up.
          </p>
        </div>
      </section>
    </>
  );
}

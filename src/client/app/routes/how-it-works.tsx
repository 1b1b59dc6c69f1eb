import { Car, HeartHandshake, Package, ShieldCheck } from 'lucide-react';
import { FeatureGrid, type Feature } from '@/features/public/components/feature-grid';
import { PageMeta } from '@/components/page-meta';
import { PageHero, Section, SignUpBand } from '@/features/public/components/page-sections';
import { StepList } from '@/features/public/components/steps';

const BENEFIT_CARDS: readonly Feature[] = [
  {
    title: 'For Drivers',
    text: 'Earn a little back on trips you already make, and help a neighbour while you are at it.',
    icon: Car,
  },
  {
    title: 'For Senders',
    text: 'Get packages, groceries and pharmacy or store pickups brought to you without a special trip.',
    icon: Package,
  },
  {
    title: 'Safe & Trusted',
    text: 'Every member is 18 or older, and profiles and reviews show who you are dealing with.',
    icon: ShieldCheck,
  },
  {
    title: 'Community First',
    text: 'Built for small towns and back roads, where neighbours have always looked out for each other.',
    icon: HeartHandshake,
  },
];

export function Component() {
  return (
    <>
      <PageMeta
        title="How It Works — RuralRoute"
        description="Post your route, connect and coordinate, exchange and deliver, then review and build trust: how RuralRoute shares rides and deliveries between rural neighbours."
      />
      <PageHero
        title="How It Works"
        lead="RuralRoute matches the trips neighbours already make with the things other neighbours need carried. Here is how a delivery happens."
      />
      <Section title="Four Steps to a Delivery">
        <StepList detailed />
      </Section>
      <Section title="Benefits for Everyone" className="bg-muted">
        <FeatureGrid items={BENEFIT_CARDS} columns={4} />
      </Section>
      <SignUpBand
        title="Start Sharing Today"
        text="Post your first route or delivery request in a couple of minutes."
        action="Sign Up Free"
      />
    </>
  );
}

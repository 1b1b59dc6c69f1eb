import { Clock, Leaf, PiggyBank, ShieldCheck, Users, CalendarCheck } from 'lucide-react';
import { FeatureGrid, type Feature } from '@/features/public/components/feature-grid';
import { PageMeta } from '@/components/page-meta';
import { CtaLink, Section, SignUpBand } from '@/features/public/components/page-sections';
import { StepList } from '@/features/public/components/steps';
import { PAGE_PATHS, SIGN_UP_PATH } from '@shared/routes';

const BENEFITS: readonly Feature[] = [
  {
    title: 'Save Money',
    text: 'Share the cost of trips that are happening anyway instead of paying for a special run.',
    icon: PiggyBank,
  },
  { title: 'Save Time', text: 'Skip the hour-long drive into town for a single parcel or prescription.', icon: Clock },
  { title: 'Build Community', text: 'Get to know the people down the road and help each other out.', icon: Users },
  { title: 'Travel Greener', text: 'Fewer half-empty trips mean less fuel burned on long country roads.', icon: Leaf },
  {
    title: 'Trusted Neighbours',
    text: 'Member profiles and reviews help you choose who carries your things.',
    icon: ShieldCheck,
  },
  {
    title: 'On Your Schedule',
    text: 'Post when it suits you and accept only the requests that fit your route.',
    icon: CalendarCheck,
  },
];

export function Component() {
  return (
    <>
      <PageMeta
        title="RuralRoute — Share the Road, Share the Load"
        description="RuralRoute connects rural neighbours: drivers share trips they already make and carry groceries, pharmacy pickups and parcels for people nearby."
      />
      <section className="bg-secondary px-4 py-16 text-center md:py-24">
        <div className="mx-auto max-w-3xl">
          <h1 className="text-4xl font-bold tracking-tight text-secondary-foreground md:text-6xl">
            Share the Road, Share the Load
          </h1>
          <p className="mx-auto mt-6 max-w-2xl text-lg text-foreground md:text-xl">
            RuralRoute connects neighbours in rural communities. Drivers share the trips they already make, and
            neighbours get groceries, pharmacy pickups and parcels carried along the way.
          </p>
          <div className="mt-8 flex flex-col justify-center gap-3 sm:flex-row">
            <CtaLink to={SIGN_UP_PATH}>Get Started</CtaLink>
            <CtaLink to={PAGE_PATHS.howItWorks} variant="outline">
              See How It Works
            </CtaLink>
          </div>
        </div>
      </section>
      <Section
        title="How RuralRoute Works"
        intro="Four simple steps from a trip you were making anyway to a delivery done."
      >
        <StepList />
      </Section>
      <Section
        title="Why Neighbours Choose RuralRoute"
        intro="Good for your wallet, your time and your community."
        className="bg-muted"
      >
        <FeatureGrid items={BENEFITS} />
      </Section>
      <SignUpBand
        title="Ready to Share the Road?"
        text="Join your neighbours on RuralRoute. Creating an account is free."
        action="Create Your Free Account"
      />
    </>
  );
}

import { Accessibility, HeartHandshake, Leaf, ShieldCheck } from 'lucide-react';
import { FeatureGrid, type Feature } from '@/features/public/components/feature-grid';
import { PageMeta } from '@/components/page-meta';
import { PageHero, Section, SignUpBand } from '@/features/public/components/page-sections';

const VALUES: readonly Feature[] = [
  {
    title: 'Neighbours First',
    text: 'RuralRoute exists to make helping each other easier, not to replace the help that was always there.',
    icon: HeartHandshake,
  },
  {
    title: 'Trust & Safety',
    text: 'Members are adults who stand behind their name. We keep only the data we need and protect it.',
    icon: ShieldCheck,
  },
  {
    title: 'Fewer Empty Miles',
    text: 'Every item that rides along on an existing trip is one less car on a long country road.',
    icon: Leaf,
  },
  {
    title: 'Open to Everyone',
    text: 'Fast on a weak signal, usable on an older phone, by keyboard and with a screen reader.',
    icon: Accessibility,
  },
];

export function Component() {
  return (
    <>
      <PageMeta
        title="About Us — RuralRoute"
        description="RuralRoute's mission, values, community and story: a shared-transport and delivery network built by and for rural neighbours."
      />
      <PageHero
        title="About RuralRoute"
        lead="We are building the simplest way for rural neighbours to share the trips they make and the loads they carry."
      />
      <Section title="Our Mission">
        <div className="mx-auto max-w-3xl space-y-4 text-lg">
          <p>
            In the countryside the nearest pharmacy, hardware store or parcel depot can be an hour away. Someone on your
            road is probably going there this week. Our mission is to connect that trip with your errand, so fewer
            people drive alone and nobody goes without.
          </p>
        </div>
      </Section>
      <Section title="Our Values" className="bg-muted">
        <FeatureGrid items={VALUES} columns={4} />
      </Section>
      <Section title="Our Community">
        <div className="mx-auto max-w-3xl space-y-4 text-lg">
          <p>
            RuralRoute members are farmers and commuters, retirees and parents, shop owners and students. Some post
            their weekly trip to town; others need a prescription, a spare part or the week&apos;s groceries brought out
            to them. Many do both.
          </p>
          <p>
            Every member confirms they are 18 or older, and every booking shows who is carrying what, so the people you
            deal with are neighbours you can find again.
          </p>
        </div>
      </Section>
      <Section title="Our Story" className="bg-muted">
        <div className="mx-auto max-w-3xl space-y-4 text-lg">
          <p>
            RuralRoute started around a kitchen table, with a list of neighbours who were already driving into town and
            a longer list of people who needed something from there. The phone calls and notes on the community board
            worked, but only for the people who happened to see them.
          </p>
          <p>
            We built RuralRoute to do the same thing for every road: a place to post the trip, post the request, and
            find each other.
          </p>
          <p className="text-base">
            Town names, ZIP codes and their positions come from{' '}
            <a className="font-medium text-primary underline underline-offset-4" href="https://www.geonames.org/">
              GeoNames
            </a>
            , used under the{' '}
            <a
              className="font-medium text-primary underline underline-offset-4"
              href="https://creativecommons.org/licenses/by/4.0/"
            >
              Creative Commons Attribution 4.0 licence
            </a>
            .
          </p>
        </div>
      </Section>
      <SignUpBand
        title="Join Your Neighbours"
        text="It takes a couple of minutes to create an account and post your first route or request."
        action="Create Your Free Account"
      />
    </>
  );
}

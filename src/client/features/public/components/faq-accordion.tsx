import { ChevronDown } from 'lucide-react';
import type * as React from 'react';
import { Link } from '@/lib/router';
import { PROHIBITED_ITEMS } from '../prohibited-items';
import { PAGE_PATHS, SIGN_UP_PATH } from '@shared/routes';

interface Faq {
  id: string;
  question: string;
  answer: React.ReactNode;
}

/** Spec section 2: eight questions, in this order. */
const FAQS: readonly Faq[] = [
  {
    id: 'how-it-works',
    question: 'How does RuralRoute work?',
    answer: (
      <p>
        Drivers post the routes they already travel, and neighbours post requests for items to be carried, from
        groceries and parcels to store, pharmacy or restaurant pickups. A driver accepts a request that fits their
        route, you agree on timing and a meet-up point, hand the item over, and rate each other afterwards. See{' '}
        <Link to={PAGE_PATHS.howItWorks} className="font-medium text-primary underline underline-offset-4">
          how RuralRoute works, step by step
        </Link>
        .
      </p>
    ),
  },
  {
    id: 'fees',
    question: 'How much does it cost?',
    answer: (
      <p>
        Creating an account, posting rides and requests and browsing are free on the Free plan. Plus ($4.99 per month)
        and Community ($49.99 per year) add extras such as priority listing and charge no service fees. The compensation
        for a delivery is set by the person who posts the request. Compare the plans on our{' '}
        <Link to={PAGE_PATHS.pricing} className="font-medium text-primary underline underline-offset-4">
          pricing page
        </Link>
        .
      </p>
    ),
  },
  {
    id: 'payments',
    question: 'How do payments work?',
    answer: (
      <>
        <p>
          When a request offers pay, the requester pays by card when choosing a driver: the pay the driver asked for,
          plus a service fee of 10% (at least $0.50). RuralRoute holds the money until the delivery is complete, then
          releases the pay to the driver. Nobody pays for a delivery that did not happen.
        </p>
        <p className="mt-2">
          Drivers see what they earned under Payments. It is paid out to their bank account once they set up payouts in
          Settings; they can deliver before they do. Requests without pay involve no payment at all.
        </p>
      </>
    ),
  },
  {
    id: 'problems',
    question: 'What if something goes wrong with a delivery?',
    answer: (
      <>
        <p>
          Talk to each other first: most problems are a late start or a missed meet-up. If you cannot sort it out, use
          &lsquo;Report a problem&rsquo; on the booking&apos;s page, from the moment the item is picked up until 48
          hours after the delivery. While the payment is still held, it is put on hold: nothing is paid out or refunded
          until a RuralRoute moderator has heard both sides and decided whether the money goes to the driver, back to
          the requester, or is split. We reply within 2 days.
        </p>
        <p className="mt-2">
          The Delivery Guarantee covers items lost or damaged in transit. Within 48 hours of the delivery, report the
          problem as &lsquo;Damaged&rsquo; or &lsquo;Not delivered&rsquo; with the item&apos;s value. An approved claim
          pays up to $50 per delivery ($250 for Plus and Community members): first back to your card, up to what you
          paid, and the rest as RuralRoute credit that pays your next deliveries. The driver&apos;s pay is not taken
          back.
        </p>
      </>
    ),
  },
  {
    id: 'verification',
    question: 'How are members verified?',
    answer: (
      <p>
        Every member confirms they are 18 or older when signing up. Community verification adds ID checks, and reviews
        after every delivery build a track record you can see before you accept or hand over anything.
      </p>
    ),
  },
  {
    id: 'cancelling',
    question: 'Can I cancel a request or a ride?',
    answer: (
      <>
        <p>
          Yes. You can cancel a booking until the delivery is complete. Please let the other person know as early as you
          can. If the requester has paid:
        </p>
        <ul className="mt-2 list-disc space-y-1 pl-6">
          <li>The driver cancels, at any time: the requester gets everything back, the pay and the service fee.</li>
          <li>The requester cancels before the item is picked up: everything back too.</li>
          <li>
            The requester cancels after the item is picked up: the driver keeps half of the pay for the trip made, and
            the rest and the service fee go back to the requester.
          </li>
        </ul>
        <p className="mt-2">Refunds go back to the card that paid, usually within 5 to 10 business days.</p>
      </>
    ),
  },
  {
    id: 'allowed-items',
    question: 'What items can be delivered?',
    answer: (
      <>
        <p>
          Everyday items a neighbour can safely carry in their car: groceries, parcels, hardware and store or restaurant
          pickups. The following are prohibited:
        </p>
        <ul className="mt-2 list-disc space-y-1 pl-6">
          {PROHIBITED_ITEMS.map((item) => (
            <li key={item}>{item}</li>
          ))}
        </ul>
      </>
    ),
  },
  {
    id: 'become-driver',
    question: 'How do I become a driver?',
    answer: (
      <p>
        Any member aged 18 or older can drive. Create a free account, post the routes you already travel, and browse
        open delivery requests to accept the ones on your way.{' '}
        <Link to={SIGN_UP_PATH} className="font-medium text-primary underline underline-offset-4">
          Create your account
        </Link>{' '}
        to get started.
      </p>
    ),
  },
];

/** Moves focus between the questions with the arrow keys, Home and End (what the WAI accordion pattern adds). */
function moveBetweenQuestions(event: React.KeyboardEvent<HTMLDivElement>) {
  const summaries = [...event.currentTarget.querySelectorAll<HTMLElement>('summary')];
  const at = summaries.indexOf(event.target as HTMLElement);
  if (at < 0) return;
  const to = { ArrowDown: at + 1, ArrowUp: at - 1, Home: 0, End: summaries.length - 1 }[event.key];
  if (to === undefined) return;
  event.preventDefault();
  summaries[(to + summaries.length) % summaries.length]!.focus();
}

/**
 * One answer open at a time, by the browser itself: `<details name>` makes the questions one group, so opening one
 * closes the other, and a question works from the first tap, before the page's script has loaded (a prerendered
 * page, decision 027). Tab moves between questions, Enter or Space opens or closes one; once the script runs, the
 * arrow keys, Home and End move between them too.
 */
export function FaqAccordion() {
  return (
    <div className="divide-y rounded-lg border bg-card" onKeyDown={moveBetweenQuestions}>
      {FAQS.map((faq) => (
        <details key={faq.id} name="faq" className="group">
          <summary className="flex cursor-pointer list-none items-center justify-between gap-4 px-5 py-4 text-left hover:bg-accent focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-inset focus-visible:ring-ring [&::-webkit-details-marker]:hidden">
            {/* h2: the questions sit directly under the page's h1. */}
            <h2 id={`faq-${faq.id}`} className="m-0 text-lg font-medium">
              {faq.question}
            </h2>
            <ChevronDown aria-hidden className="size-5 shrink-0 transition-transform group-open:rotate-180" />
          </summary>
          <div role="region" aria-labelledby={`faq-${faq.id}`} className="px-5 pb-5 text-muted-foreground">
            {faq.answer}
          </div>
        </details>
      ))}
    </div>
  );
}

import { getSiteConfig } from '@/lib/site-config';
import { PROHIBITED_ITEMS } from '@/features/public/prohibited-items';
import { PageMeta } from '@/components/page-meta';
import { PolicyPage, PolicySection } from '@/features/public/components/policy-page';

export function Component() {
  const { supportEmail } = getSiteConfig();
  return (
    <>
      <PageMeta
        title="Terms of Service — RuralRoute"
        description="The terms for using RuralRoute: who may join, what members agree to when they post, accept and carry deliveries, prohibited items, cancellations and liability."
      />
      <PolicyPage
        title="Terms of Service"
        intro="These terms apply to everyone who uses RuralRoute. By creating an account you agree to them; please read them before you post or accept a ride or delivery."
      >
        <PolicySection title="Who can use RuralRoute">
          <p>
            You must be 18 or older and give your real name and an e-mail address you control. One person, one account.
            You are responsible for what happens under your account, so keep your password to yourself.
          </p>
        </PolicySection>
        <PolicySection title="What RuralRoute is">
          <p>
            RuralRoute is a place where neighbours find each other: drivers post routes they already travel and members
            post items they need carried. RuralRoute is not a carrier or a transport company. The agreement to carry an
            item is between the requester and the driver who accepts it.
          </p>
        </PolicySection>
        <PolicySection title="Posting and accepting">
          <p>
            Describe rides and requests honestly, including the size of an item and any special handling it needs. When
            you accept a request, you commit to carrying it as agreed or to telling the requester promptly if you
            cannot. Drivers must hold a valid licence and insurance for the vehicle they drive and obey the law on the
            road.
          </p>
        </PolicySection>
        <PolicySection title="Prohibited items">
          <p>The following may never be requested or carried through RuralRoute:</p>
          <ul className="list-disc space-y-1 pl-6">
            {PROHIBITED_ITEMS.map((item) => (
              <li key={item}>{item}</li>
            ))}
          </ul>
          <p>We remove listings that break this rule and may close the accounts that posted them.</p>
        </PolicySection>
        <PolicySection title="Cancellations and disputes">
          <p>
            When a request offers pay, the requester pays by card when choosing a driver: the pay and a service fee of
            10% of it (at least $0.50). RuralRoute holds the money until the delivery is complete and then releases the
            pay to the driver; the service fee is RuralRoute&apos;s.
          </p>
          <p>
            Either person can cancel a booking until the delivery is complete. If the driver cancels, at any time, or
            the requester cancels before the item is marked as picked up, the requester is refunded in full: the pay and
            the service fee. If the requester cancels after the item was picked up, the driver keeps half of the pay for
            the trip made, and the rest and the service fee are refunded. Refunds go back to the card that paid.
          </p>
          <p>
            If a delivery goes wrong and you cannot resolve it together, either person can use &lsquo;Report a
            problem&rsquo; on the booking, from pickup until 48 hours after the delivery. While the money is still held,
            the report puts it on hold: the booking can be neither completed nor cancelled until a RuralRoute moderator
            has heard both sides and decided to release the money to the driver, refund the requester, or split it. The
            decision and its reasons are shown to both people and are final on RuralRoute.
          </p>
          <p>
            The Delivery Guarantee: if a completed delivery arrived damaged or did not arrive, the requester may claim
            within 48 hours of completion, stating the item&apos;s value. RuralRoute pays an approved claim up to $50
            per delivery ($250 for Plus and Community members), from a reserve funded by a quarter of every service fee:
            first as a refund of what was paid for that delivery, and any remainder as RuralRoute credit, which pays for
            later deliveries before the card. A claim the reserve cannot pay at once waits until it can and is never
            paid in part. The guarantee is not insurance, and it does not take back what the driver was paid.
          </p>
        </PolicySection>
        <PolicySection title="Respect and safety">
          <p>
            Treat other members with courtesy. Harassment, discrimination, fraud and misuse of another member&apos;s
            personal details are not allowed and lead to the account being closed. Meet in safe, public places where you
            can.
          </p>
        </PolicySection>
        <PolicySection title="Liability">
          <p>
            We work to keep RuralRoute available and safe, but the service is provided as is. To the extent the law
            allows, RuralRoute is not liable for the acts of members or for indirect losses arising from a ride or
            delivery arranged through it.
          </p>
        </PolicySection>
        <PolicySection title="Changes and contact">
          <p>
            We may update these terms; the date at the top shows the current version, and we tell members about
            significant changes. Questions? Write to{' '}
            <a href={`mailto:${supportEmail}`} className="font-medium text-primary underline underline-offset-4">
              {supportEmail}
            </a>
            .
          </p>
        </PolicySection>
      </PolicyPage>
    </>
  );
}

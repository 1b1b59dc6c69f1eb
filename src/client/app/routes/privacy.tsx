import { getSiteConfig } from '@/lib/site-config';
import { PageMeta } from '@/components/page-meta';
import { PolicyPage, PolicySection } from '@/features/public/components/policy-page';

export function Component() {
  const { supportEmail } = getSiteConfig();
  const mail = (
    <a href={`mailto:${supportEmail}`} className="font-medium text-primary underline underline-offset-4">
      {supportEmail}
    </a>
  );
  return (
    <>
      <PageMeta
        title="Privacy Policy — RuralRoute"
        description="What RuralRoute stores about you (account, profile, rides, requests, bookings, contact messages and a session cookie), why, and how to access, correct or delete it."
      />
      <PolicyPage
        title="Privacy Policy"
        intro="This policy lists everything RuralRoute stores about you, why we store it, and what you can ask us to do with it. We keep only what the service needs to work."
      >
        <PolicySection title="What we store">
          <ul className="list-disc space-y-2 pl-6">
            <li>
              <strong>Your account:</strong> your e-mail address, a one-way hash of your password (never the password
              itself), the time you confirmed you are 18 or older, and when the account was created.
            </li>
            <li>
              <strong>Your profile:</strong> your full name, which other members see on your rides, requests and
              bookings.
            </li>
            <li>
              <strong>Rides you post:</strong> origin, destination, departure date and optional time, available space,
              notes and status.
            </li>
            <li>
              <strong>Delivery requests you post:</strong> title, description, pickup and delivery locations, the
              optional date needed by and compensation, status and when it was created.
            </li>
            <li>
              <strong>Bookings:</strong> which request was accepted, by which driver, its status and when.
            </li>
            <li>
              <strong>Contact messages:</strong> the name, e-mail address, subject and message you send through our
              contact form, and when you sent it.
            </li>
            <li>
              <strong>Sessions:</strong> when you sign in, your browser keeps a session cookie. We store only a hash of
              it, with the time it was created and last used, when it expires, and your browser&apos;s user-agent
              string, so you stay signed in and we can end the session when you sign out.
            </li>
          </ul>
        </PolicySection>
        <PolicySection title="Cookies">
          <p>
            We use two cookies and no others: the session cookie that keeps you signed in (it cannot be read by scripts
            and is deleted when you sign out or it expires after at most 30 days), and a cookie that remembers whether
            you collapsed the dashboard sidebar (kept for 7 days). We use no advertising or tracking cookies and no
            third-party analytics.
          </p>
        </PolicySection>
        <PolicySection title="How we use it">
          <p>
            Only to run RuralRoute: to sign you in, to show your rides, requests and bookings to you and the members you
            deal with, and to answer your messages. To slow down abuse we count recent attempts per network address and
            per account; a count is kept under a one-way hash, never the address or e-mail itself, and is deleted soon
            after its time window ends (about an hour at most). We do not sell or rent your data to anyone.
          </p>
        </PolicySection>
        <PolicySection title="Who can see it">
          <p>
            Other signed-in members see your full name next to the rides and requests you post and the bookings you are
            part of, along with the details of those rides and requests. Your e-mail address and everything else are
            visible only to you and to the RuralRoute team.
          </p>
        </PolicySection>
        <PolicySection title="Your rights">
          <p>
            You can ask us at any time to <strong>access</strong> the data we hold about you (we send you a copy), to{' '}
            <strong>correct</strong> anything that is wrong, or to <strong>delete</strong> it. Deleting your account
            removes your profile, sessions, rides, requests and bookings. Write to {mail} from the address on your
            account and we will answer within 30 days.
          </p>
        </PolicySection>
        <PolicySection title="How long we keep it">
          <p>
            Account data is kept while your account exists. Rides, requests and bookings are kept until you delete them
            or your account. Contact messages are kept for as long as we need them to answer you. Sessions end when you
            sign out and expire automatically.
          </p>
        </PolicySection>
        <PolicySection title="Contact">
          <p>Questions about your privacy? Write to {mail}.</p>
        </PolicySection>
      </PolicyPage>
    </>
  );
}

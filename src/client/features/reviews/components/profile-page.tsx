import { CheckCircle2 } from 'lucide-react';
import { idParamSchema } from '@shared/marketplace';
import { REVIEW_TEXT, type Profile } from '@shared/reviews';
import { PAGE_PATHS } from '@shared/routes';
import { VERIFICATION_LABELS } from '@shared/verification';
import { DetailNotFound, DetailQuery } from '@/components/detail-query';
import { PageHeader } from '@/components/page-header';
import { PaginatedList } from '@/components/paginated-list';
import { AmbassadorBadge } from '@/components/ambassador-badge';
import { VerifiedBadge } from '@/components/verified-badge';
import { Card, CardContent } from '@/components/ui/card';
import { useSession } from '@/features/auth';
import { useProfile, useProfileReviews } from '../api/reviews';
import { ReviewItem } from './review-item';
import { RatingSummaryText } from './stars';

const NOT_FOUND = {
  title: 'Profile not found',
  text: 'This person does not exist, or their account is no longer active.',
  back: { to: PAGE_PATHS.dashboard, label: 'Back to Dashboard' },
};

export const OWN_PROFILE_TEXT = 'This is how others see your profile.';

/** '2026-11-03T10:00:00.000Z' -> 'November 2026', in the reader's timezone. */
function monthYear(iso: string): string {
  return new Date(iso).toLocaleDateString('en-US', { month: 'long', year: 'numeric' });
}

/** The published reviews of the person, newest first, 20 at a time. */
function ProfileReviews({ userId }: { userId: string }) {
  return (
    <section aria-labelledby="reviews-heading" className="space-y-3">
      <h2 id="reviews-heading" className="text-xl font-semibold">
        Reviews
      </h2>
      <PaginatedList
        query={useProfileReviews(userId)}
        what="reviews"
        empty={REVIEW_TEXT.noReviews}
        renderItem={(review) => <ReviewItem review={review} />}
      />
    </section>
  );
}

/** 'Email verified', 'Phone verified', 'ID checked' (each with its check mark), and the 'Verified' badge for all three. */
function ProfileChecks({ profile }: { profile: Profile }) {
  const done = (Object.keys(VERIFICATION_LABELS) as (keyof typeof VERIFICATION_LABELS)[]).filter(
    (check) => profile.verification[check],
  );
  return (
    <section aria-labelledby="profile-checks" className="border-t pt-3">
      <h2 id="profile-checks" className="flex flex-wrap items-center gap-2 font-semibold">
        Verification {profile.verified ? <VerifiedBadge /> : null}
      </h2>
      {done.length ? (
        <ul className="mt-1 space-y-1">
          {done.map((check) => (
            <li key={check} className="flex items-center gap-1.5">
              <CheckCircle2 aria-hidden className="size-4 text-green-700" />
              {VERIFICATION_LABELS[check]}
            </li>
          ))}
        </ul>
      ) : (
        <p className="text-muted-foreground">No checks yet.</p>
      )}
    </section>
  );
}

function ProfileView({ profile }: { profile: Profile }) {
  const isMe = useSession().data?.user?.id === profile.id;
  return (
    <div className="space-y-6">
      <div>
        <PageHeader title={profile.full_name} description={isMe ? OWN_PROFILE_TEXT : undefined} />
        <Card>
          <CardContent className="space-y-2 pt-6">
            {profile.ambassador ? (
              <p>
                <AmbassadorBadge />
              </p>
            ) : null}
            <p className="text-lg">
              <RatingSummaryText rating={profile.rating} className="text-lg font-medium text-foreground" />
            </p>
            <p className="text-muted-foreground">Member since {monthYear(profile.member_since)}</p>
            <p>Deliveries made: {profile.deliveries_made}</p>
            <p>Requests delivered: {profile.requests_delivered}</p>
            <ProfileChecks profile={profile} />
            {profile.about ? (
              <section aria-labelledby="profile-about" className="border-t pt-3">
                <h2 id="profile-about" className="font-semibold">
                  About
                </h2>
                <p className="whitespace-pre-line break-words">{profile.about}</p>
              </section>
            ) : null}
          </CardContent>
        </Card>
      </div>
      <ProfileReviews userId={profile.id} />
    </div>
  );
}

function LoadedProfile({ id }: { id: string }) {
  return (
    <DetailQuery query={useProfile(id)} what="this profile" notFound={NOT_FOUND}>
      {(profile) => <ProfileView profile={profile} />}
    </DetailQuery>
  );
}

/**
 * '/dashboard/users/:id': a person's public profile for any signed-in user: name, since when they are a member,
 * their completed deliveries as driver and requester, their rating, and the published reviews of them. An unknown
 * or suspended account is the not-found page.
 */
export function ProfilePage({ id }: { id: string }) {
  if (!idParamSchema.safeParse({ id }).success) return <DetailNotFound {...NOT_FOUND} />;
  return <LoadedProfile id={id} />;
}

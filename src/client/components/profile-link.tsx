import { Link } from '@/lib/router';
import { profilePath } from '@shared/routes';
import { cn } from '@/lib/utils';
import { AmbassadorBadge } from './ambassador-badge';
import { VerifiedBadge } from './verified-badge';

/**
 * A person's name as the link to their profile, wherever a name is shown (cards, offers, booking pages), followed by
 * the 'Verified' badge when they have it and Community's 'Ambassador' badge (outside the link: the link's name stays the person's name).
 */
export function ProfileLink({
  person,
  className,
}: {
  /** `ambassador`: a Community member (issue 38), shown where a list carries it. */
  person: { id: string; full_name: string; verified?: boolean; ambassador?: boolean };
  className?: string;
}) {
  const link = (
    <Link
      to={profilePath(person.id)}
      className={cn(
        'rounded-sm font-medium text-primary underline underline-offset-4 hover:decoration-2 focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring',
        className,
      )}
    >
      {person.full_name}
    </Link>
  );
  if (!person.verified && !person.ambassador) return link;
  return (
    <>
      {link}
      {person.verified ? (
        <>
          {' '}
          <VerifiedBadge />
        </>
      ) : null}
      {person.ambassador ? (
        <>
          {' '}
          <AmbassadorBadge />
        </>
      ) : null}
    </>
  );
}

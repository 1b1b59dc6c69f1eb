import { Flag } from 'lucide-react';
import { useRef, useState } from 'react';
import type { Review } from '@shared/reviews';
import { Button } from '@/components/ui/button';
import { useSession } from '@/features/auth';
import { ReportDialog } from '@/features/moderation';
import { ProfileLink } from '@/components/profile-link';
import { formatInstant } from '@/lib/format';
import { ReplyForm } from './reply-form';
import { Stars } from './stars';

const ROLE = { driver: 'Driver', requester: 'Requester' } as const;

/**
 * One review, as a profile and a booking page show it: who wrote it (linking to their profile) and in which role,
 * the stars, the comment, the date and the reviewed person's reply. Once it is published, the signed-in viewer
 * may act on it: the reviewed person gets the 'Reply' form while there is no reply, and anyone but its author may
 * 'Report review'. `actions={false}` shows it without either.
 */
export function ReviewItem({ review, actions = true }: { review: Review; actions?: boolean }) {
  const me = useSession().data?.user?.id;
  const at = review.published_at ?? review.created_at;
  const published = review.published_at !== null;
  const canAct = actions && published && me !== undefined;
  const canReply = canAct && me === review.reviewee.id && review.reply === null;
  const canReport = canAct && me !== review.reviewer.id;
  return (
    <article className="space-y-2 rounded-md border p-4" aria-label={`Review by ${review.reviewer.full_name}`}>
      <div className="flex flex-wrap items-center gap-x-3 gap-y-1">
        <ProfileLink person={review.reviewer} />
        <span className="text-sm text-muted-foreground">{ROLE[review.reviewer_role]}</span>
        <Stars rating={review.rating} />
        <time dateTime={at} className="text-sm text-muted-foreground">
          {formatInstant(at)}
        </time>
      </div>
      {review.comment && <p className="whitespace-pre-wrap break-words">{review.comment}</p>}
      {review.reply && (
        <div className="ml-4 border-l-2 pl-3">
          <p className="text-sm font-medium">Reply from {review.reviewee.full_name}</p>
          <p className="whitespace-pre-wrap break-words text-sm">{review.reply.body}</p>
        </div>
      )}
      {canReply ? <ReplyForm review={review} /> : null}
      {canReport ? <ReportReview review={review} /> : null}
    </article>
  );
}

/** 'Report review': the reporting dialog about its author, carrying the review; focus returns to the button. */
function ReportReview({ review }: { review: Review }) {
  const [open, setOpen] = useState(false);
  const buttonRef = useRef<HTMLButtonElement>(null);
  return (
    <>
      <Button ref={buttonRef} type="button" variant="ghost" className="px-2" onClick={() => setOpen(true)}>
        <Flag aria-hidden />
        Report review
      </Button>
      <ReportDialog
        person={review.reviewer}
        reviewId={review.id}
        open={open}
        onOpenChange={setOpen}
        onCloseAutoFocus={(event) => {
          event.preventDefault();
          buttonRef.current?.focus();
        }}
      />
    </>
  );
}

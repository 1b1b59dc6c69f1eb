import { Star } from 'lucide-react';
import { ratingLabel, ratingText, type RatingSummary } from '@shared/rating';
import { cn } from '@/lib/utils';

/** A review's stars, read as '4 stars' (the icons themselves are decoration). */
export function Stars({ rating, className }: { rating: number; className?: string }) {
  return (
    <span
      role="img"
      aria-label={`${rating} ${rating === 1 ? 'star' : 'stars'}`}
      className={cn('inline-flex', className)}
    >
      {[1, 2, 3, 4, 5].map((n) => (
        <Star
          key={n}
          aria-hidden
          className={cn('size-4', n <= rating ? 'fill-amber-500 text-amber-700' : 'text-muted-foreground')}
        />
      ))}
    </span>
  );
}

/** '4.8 ★ · 12 reviews' or 'New member', as cards and offers show a person's record. */
export function RatingSummaryText({ rating, className }: { rating: RatingSummary; className?: string }) {
  const text = ratingText(rating);
  const label = ratingLabel(rating);
  return (
    <span className={cn('text-sm text-muted-foreground', className)}>
      {label === text ? (
        text
      ) : (
        <>
          <span aria-hidden>{text}</span>
          <span className="sr-only">{label}</span>
        </>
      )}
    </span>
  );
}

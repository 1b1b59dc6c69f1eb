import { zodResolver } from '@hookform/resolvers/zod';
import { useQueryClient } from '@tanstack/react-query';
import { useId } from 'react';
import { Controller, useForm, useWatch } from 'react-hook-form';
import type { z } from 'zod';
import { REVIEW_COMMENT_MAX, REVIEW_TEXT, reviewInputSchema, type ReviewInput } from '@shared/reviews';
import { CountedTextarea } from '@/components/form/counted-textarea';
import { Button } from '@/components/ui/button';
import { ApiError } from '@/lib/api-client';
import { messageOf, toastFirstError } from '@/lib/form-errors';
import { queryKeys } from '@/lib/query-keys';
import { useSubmitReview } from '../api/reviews';
import { StarRatingInput } from './star-rating-input';

type ReviewOutput = z.output<typeof reviewInputSchema>;

const ORDER = ['rating', 'comment'] as const;

/**
 * 'Rating' (required, 1 to 5 stars) and an optional 'Comment', checked by the shared schema: the first failing rule
 * is the 'Validation Error' toast, each message sits under its field and focus goes to the first. 'Submit review'
 * sends them; the hook toasts 'Review submitted' and puts the booking's new review state in the cache, which
 * replaces this form. A refusal (already reviewed, period ended) reloads that state.
 */
export function ReviewForm({ bookingId, onSubmitted }: { bookingId: string; onSubmitted?: () => void }) {
  const id = useId();
  const client = useQueryClient();
  const submitReview = useSubmitReview(bookingId);
  const form = useForm<ReviewInput, unknown, ReviewOutput>({
    resolver: zodResolver(reviewInputSchema),
    defaultValues: { comment: '' },
  });
  const comment = useWatch({ control: form.control, name: 'comment' }) ?? '';
  const errorOf = (name: (typeof ORDER)[number] & string) => messageOf(form.formState.errors, name);
  const ratingError = errorOf('rating');
  const commentError = errorOf('comment');

  const submit = form.handleSubmit(
    (values) =>
      submitReview.mutate(values, {
        onSuccess: () => onSubmitted?.(),
        onError: (err) => {
          if (err instanceof ApiError && err.status === 409)
            void client.invalidateQueries({ queryKey: queryKeys.bookingReviews(bookingId) });
        },
      }),
    (errors) => toastFirstError(errors, ORDER),
  );

  const ratingLabelId = `${id}-rating-label`;
  const ratingErrorId = `${id}-rating-error`;
  return (
    <form noValidate className="space-y-4" onSubmit={submit}>
      <div className="space-y-2">
        <p id={ratingLabelId} className="text-sm font-medium leading-none">
          Rating
        </p>
        <Controller
          control={form.control}
          name="rating"
          render={({ field }) => (
            <StarRatingInput
              ref={field.ref}
              name={field.name}
              value={field.value}
              onChange={field.onChange}
              onBlur={field.onBlur}
              disabled={submitReview.isPending}
              invalid={ratingError !== undefined}
              aria-labelledby={ratingLabelId}
              aria-describedby={ratingError ? ratingErrorId : undefined}
            />
          )}
        />
        {ratingError ? (
          <p id={ratingErrorId} role="alert" className="text-sm font-medium text-destructive">
            {ratingError}
          </p>
        ) : null}
      </div>
      <CountedTextarea
        id={`${id}-comment`}
        label="Comment"
        hint={`Optional, up to ${REVIEW_COMMENT_MAX} characters.`}
        error={commentError}
        limit={REVIEW_COMMENT_MAX}
        length={comment.length}
        disabled={submitReview.isPending}
        {...form.register('comment')}
      />
      <Button type="submit" disabled={submitReview.isPending}>
        {submitReview.isPending ? 'Submitting...' : REVIEW_TEXT.submit}
      </Button>
    </form>
  );
}

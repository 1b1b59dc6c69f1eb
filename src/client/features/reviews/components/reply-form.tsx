import { zodResolver } from '@hookform/resolvers/zod';
import { useQueryClient } from '@tanstack/react-query';
import { useId } from 'react';
import { useForm, useWatch } from 'react-hook-form';
import type { z } from 'zod';
import { REVIEW_REPLY_MAX, REVIEW_TEXT, replyInputSchema, type ReplyInput, type Review } from '@shared/reviews';
import { CountedTextarea } from '@/components/form/counted-textarea';
import { Button } from '@/components/ui/button';
import { ApiError } from '@/lib/api-client';
import { toastFirstError } from '@/lib/form-errors';
import { queryKeys } from '@/lib/query-keys';
import { useReply } from '../api/reviews';

type ReplyOutput = z.output<typeof replyInputSchema>;

/**
 * The reviewed person's one public 'Reply' under a published review (at most 500 characters), checked by the
 * shared schema. 'Post reply' sends it; the hook toasts 'Reply posted' and reloads the review, whose reply then
 * replaces this form. A refusal (already replied) reloads too.
 */
export function ReplyForm({ review }: { review: Review }) {
  const id = useId();
  const client = useQueryClient();
  const reply = useReply();
  const form = useForm<ReplyInput, unknown, ReplyOutput>({
    resolver: zodResolver(replyInputSchema),
    defaultValues: { body: '' },
  });
  const body = useWatch({ control: form.control, name: 'body' }) ?? '';
  const message = form.formState.errors.body?.message;
  const error = typeof message === 'string' ? message : undefined;

  const submit = form.handleSubmit(
    (values) =>
      reply.mutate(
        { reviewId: review.id, ...values },
        {
          onSuccess: () => form.reset({ body: '' }),
          onError: (err) => {
            if (!(err instanceof ApiError && err.status === 409)) return;
            void client.invalidateQueries({ queryKey: queryKeys.bookingReviews(review.booking_id) });
            void client.invalidateQueries({ queryKey: queryKeys.profileReviews(review.reviewee.id) });
          },
        },
      ),
    (errors) => toastFirstError(errors, ['body']),
  );

  return (
    <form noValidate className="space-y-2" onSubmit={submit}>
      <CountedTextarea
        id={`${id}-reply`}
        label={REVIEW_TEXT.reply}
        hint={`Shown publicly under the review, up to ${REVIEW_REPLY_MAX} characters. You can reply once.`}
        error={error}
        limit={REVIEW_REPLY_MAX}
        length={body.length}
        rows={3}
        className="min-h-20"
        disabled={reply.isPending}
        {...form.register('body')}
      />
      <Button type="submit" disabled={reply.isPending}>
        {reply.isPending ? 'Posting...' : 'Post reply'}
      </Button>
    </form>
  );
}

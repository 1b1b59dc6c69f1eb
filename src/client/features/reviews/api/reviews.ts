import {
  infiniteQueryOptions,
  queryOptions,
  useInfiniteQuery,
  useMutation,
  useQuery,
  useQueryClient,
} from '@tanstack/react-query';
import {
  bookingReviewsSchema,
  profileSchema,
  REVIEW_TEXT,
  reviewSchema,
  type ReplyInput,
  type ReviewInput,
} from '@shared/reviews';
import { api } from '@/lib/api-client';
import { toastMutationError } from '@/lib/mutation-errors';
import { fetchPage } from '@/lib/pagination';
import { sendQueue } from '@/offline/send-queue';
import { queryKeys } from '@/lib/query-keys';
import { toastSuccess } from '@/lib/toast';

const path = (...parts: string[]) => parts.map(encodeURIComponent).join('/');

/** GET /bookings/:id/review: the review part of a booking page (its two people only). */
export const bookingReviewsQueryOptions = (bookingId: string) =>
  queryOptions({
    queryKey: queryKeys.bookingReviews(bookingId),
    queryFn: async ({ signal }) =>
      bookingReviewsSchema.parse(await api<unknown>(`/${path('bookings', bookingId, 'review')}`, { signal })),
  });

export function useBookingReviews(bookingId: string) {
  return useQuery(bookingReviewsQueryOptions(bookingId));
}

/** POST /bookings/:id/review: 201 with the booking's review part, which replaces the cached one. */
export function useSubmitReview(bookingId: string) {
  const client = useQueryClient();
  return useMutation({
    // With no signal the review waits in the send queue ('Waiting to send') and is sent when the signal returns.
    mutationFn: async (input: ReviewInput) =>
      bookingReviewsSchema.parse(
        await sendQueue.send<unknown>({
          label: 'Review of this delivery',
          method: 'POST',
          path: `/${path('bookings', bookingId, 'review')}`,
          body: input,
          sentToast: { title: REVIEW_TEXT.submitted },
          refresh: [queryKeys.bookingReviews(bookingId), queryKeys.users],
        }),
      ),
    onSuccess: (reviews) => {
      client.setQueryData(queryKeys.bookingReviews(bookingId), reviews);
      toastSuccess(REVIEW_TEXT.submitted);
      // Publishing (the second review) changes both people's ratings and profiles.
      if (reviews.mine?.published_at) void client.invalidateQueries({ queryKey: queryKeys.users });
    },
    onError: toastMutationError,
  });
}

/** POST /reviews/:id/reply: the reviewed person's one public answer. Profiles and the booking page reload. */
export function useReply() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: async ({ reviewId, ...input }: ReplyInput & { reviewId: string }) =>
      reviewSchema.parse(await api<unknown>(`/${path('reviews', reviewId, 'reply')}`, { method: 'POST', body: input })),
    onSuccess: (review) => {
      toastSuccess(REVIEW_TEXT.replyPosted);
      void client.invalidateQueries({ queryKey: queryKeys.bookingReviews(review.booking_id) });
      void client.invalidateQueries({ queryKey: queryKeys.profileReviews(review.reviewee.id) });
    },
    onError: toastMutationError,
  });
}

/** GET /users/:id: a person's profile (404 for an unknown or suspended account). */
export const profileQueryOptions = (userId: string) =>
  queryOptions({
    queryKey: queryKeys.profile(userId),
    queryFn: async ({ signal }) => profileSchema.parse(await api<unknown>(`/${path('users', userId)}`, { signal })),
  });

export function useProfile(userId: string) {
  return useQuery(profileQueryOptions(userId));
}

/** GET /users/:id/reviews: their published reviews, newest first, 20 a page. */
export function useProfileReviews(userId: string) {
  return useInfiniteQuery(
    infiniteQueryOptions({
      queryKey: queryKeys.profileReviews(userId),
      queryFn: ({ pageParam, signal }) =>
        fetchPage(`/${path('users', userId, 'reviews')}`, reviewSchema, pageParam, signal),
      initialPageParam: null as string | null,
      getNextPageParam: (last) => last.next_cursor,
      meta: { errorToast: 'Failed to load reviews' },
    }),
  );
}

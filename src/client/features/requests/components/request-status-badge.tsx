import { requestStatusSchema, type RequestStatus } from '@shared/statuses';
import { StatusBadge, type BadgeTone } from '@/components/status-badge';

/**
 * 'open' stays the spec's grey; a request with a confirmed driver is blue like a confirmed booking, a delivered one
 * green like a completed booking.
 */
const TONES: Record<RequestStatus, BadgeTone> = {
  open: 'neutral',
  matched: 'blue',
  completed: 'green',
  deleted: 'red',
};

export function RequestStatusBadge({ status }: { status: string }) {
  const known = requestStatusSchema.safeParse(status);
  return <StatusBadge status={status} tone={known.success ? TONES[known.data] : 'neutral'} />;
}

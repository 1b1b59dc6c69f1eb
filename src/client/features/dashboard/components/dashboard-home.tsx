import { Car, CheckCircle2, Package, PackageCheck, Truck, XCircle, type LucideIcon } from 'lucide-react';
import type * as React from 'react';
import { Link } from '@/lib/router';
import type { Activity } from '@shared/marketplace';
import { bookingDetailPath } from '@shared/routes';
import { Button } from '@/components/ui/button';
import { Skeleton } from '@/components/ui/skeleton';
import { ApiError } from '@/lib/api-client';
import { formatInstant } from '@/lib/format';
import { useDashboard } from '../api/dashboard';
import { activityText } from './activity-text';
import { DashboardOverview } from './dashboard-overview';

const ICONS = { ride_posted: Car, request_created: Package, request_accepted: CheckCircle2, booking_made: Truck };

/** A lifecycle step's icon: delivered, ended without a delivery, or on its way. */
function iconOf(item: Activity): LucideIcon {
  if (item.type !== 'booking_event') return ICONS[item.type];
  if (item.event === 'completed' || item.event === 'received') return PackageCheck;
  if (['declined', 'withdrawn', 'cancelled', 'other_chosen', 'request_withdrawn'].includes(item.event)) return XCircle;
  return Truck;
}

function ActivityList({ items }: { items: Activity[] }) {
  return (
    <ul className="space-y-3" aria-label="Recent activity">
      {items.map((item) => {
        const Icon = iconOf(item);
        const text = activityText(item);
        return (
          <li key={item.id} className="flex items-start gap-3">
            <Icon aria-hidden className="mt-0.5 size-5 shrink-0 text-primary" />
            <div className="min-w-0">
              <p className="break-words">
                {item.type === 'booking_event' ? (
                  // A lifecycle step opens its booking.
                  <Link to={bookingDetailPath(item.booking_id)} className="hover:underline">
                    {text}
                  </Link>
                ) : (
                  text
                )}
              </p>
              <time dateTime={item.at} className="text-sm text-muted-foreground">
                {formatInstant(item.at)}
              </time>
            </div>
          </li>
        );
      })}
    </ul>
  );
}

/**
 * The dashboard index: the spec's cards, with real counts and the user's latest events from GET /dashboard.
 * `banner`: what the page shows above them (the app's route passes the e-mail check's banner).
 */
export function DashboardHome({ banner }: { banner?: React.ReactNode }) {
  const dashboard = useDashboard();
  const data = dashboard.data;
  const stats = data && {
    activeRides: data.stats.active_rides,
    openRequests: data.stats.open_requests,
    totalBookings: data.stats.total_bookings,
    bookingsAsDriver: data.stats.bookings_as_driver,
    completed: data.stats.completed,
  };
  const alert = dashboard.isError ? (
    <div role="alert" className="mb-4 flex flex-col items-start gap-3 rounded-lg border border-destructive/40 p-4">
      <p>
        We couldn&apos;t load your dashboard.
        {dashboard.error instanceof ApiError ? ` ${dashboard.error.message}` : ''}
      </p>
      <Button variant="outline" onClick={() => void dashboard.refetch()}>
        Try again
      </Button>
    </div>
  ) : null;

  // The spec's "no recent activity" text only once we know there is none, never while loading or after a failure.
  let activity: React.ReactNode;
  if (data) activity = data.activity.length > 0 ? <ActivityList items={data.activity} /> : undefined;
  else if (dashboard.isError) activity = <p className="text-muted-foreground">Recent activity could not be loaded.</p>;
  else
    activity = (
      <div role="status" className="space-y-3">
        <span className="sr-only">Loading recent activity...</span>
        <Skeleton className="h-5 w-3/4" />
        <Skeleton className="h-5 w-1/2" />
      </div>
    );

  return (
    <DashboardOverview
      stats={dashboard.isError && !data ? undefined : stats}
      alert={
        <>
          {banner}
          {alert}
        </>
      }
      activity={activity}
    />
  );
}

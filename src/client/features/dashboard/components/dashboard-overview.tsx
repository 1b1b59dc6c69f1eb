import { Link } from '@/lib/router';
import { PageHeader } from '@/components/page-header';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardHeader, CardTitle } from '@/components/ui/card';
import { Skeleton } from '@/components/ui/skeleton';
import { PAGE_PATHS } from '@shared/routes';

interface DashboardStats {
  activeRides: number;
  openRequests: number;
  totalBookings: number;
  completed: number;
  /** How many of totalBookings are as driver: when none, 'Total Bookings' opens the 'As requester' tab. */
  bookingsAsDriver: number;
}

const REQUESTER_TAB = `${PAGE_PATHS.myBookings}?tab=requester`;

/** 'Total Bookings' opens the tab where my bookings are; 'Completed' opens My Bookings. */
const STAT_CARDS = [
  { key: 'activeRides', label: 'Active Rides', to: PAGE_PATHS.myRides },
  { key: 'openRequests', label: 'Open Requests', to: PAGE_PATHS.myRequests },
  { key: 'totalBookings', label: 'Total Bookings', to: PAGE_PATHS.myBookings },
  { key: 'completed', label: 'Completed', to: PAGE_PATHS.myBookings },
] as const;

/**
 * `stats` undefined means still loading (placeholders); `alert` is shown above the cards (e.g. a failed load
 * with its retry); `activity` replaces the spec's empty text when there is something to show.
 */
export function DashboardOverview({
  stats,
  alert,
  activity,
}: {
  stats: DashboardStats | undefined;
  alert?: React.ReactNode;
  activity?: React.ReactNode;
}) {
  return (
    <div>
      <PageHeader title="Welcome back!" description="Here's what's happening with your rides and deliveries." />
      {alert}
      <div className="grid gap-4 sm:grid-cols-2 lg:grid-cols-4">
        {STAT_CARDS.map((card) => (
          <Card key={card.key}>
            <CardHeader className="pb-2">
              {/* Not CardTitle: a smaller title, in classes that need no merging (the first screen renders without it). */}
              <h2 className="text-base font-medium tracking-tight text-muted-foreground">{card.label}</h2>
            </CardHeader>
            <CardContent>
              {stats ? (
                <p className="text-3xl font-bold" data-testid={`stat-${card.key}`}>
                  {stats[card.key]}
                </p>
              ) : (
                <Skeleton className="h-9 w-12" />
              )}
              <Link
                to={
                  card.key === 'totalBookings' && stats && stats.totalBookings > 0 && stats.bookingsAsDriver === 0
                    ? REQUESTER_TAB
                    : card.to
                }
                className="mt-2 inline-block text-sm font-medium text-primary hover:underline"
              >
                View details →<span className="sr-only"> for {card.label}</span>
              </Link>
            </CardContent>
          </Card>
        ))}
      </div>
      <div className="mt-6 grid gap-4 lg:grid-cols-2">
        <Card>
          <CardHeader>
            <CardTitle>Quick Actions</CardTitle>
          </CardHeader>
          <CardContent className="flex flex-col gap-3">
            <Button asChild>
              <Link to={PAGE_PATHS.myRides}>Post a New Ride</Link>
            </Button>
            <Button asChild variant="outline">
              <Link to={PAGE_PATHS.myRequests}>Create a Delivery Request</Link>
            </Button>
          </CardContent>
        </Card>
        <Card>
          <CardHeader>
            <CardTitle>Recent Activity</CardTitle>
          </CardHeader>
          <CardContent>
            {activity ?? (
              <p className="text-muted-foreground">
                No recent activity yet. Start by posting a ride or creating a delivery request!
              </p>
            )}
          </CardContent>
        </Card>
      </div>
    </div>
  );
}

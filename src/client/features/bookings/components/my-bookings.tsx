import { useTabParam } from '@/hooks/use-tab-param';
import type { BookingRole } from '@shared/lifecycle';
import { PageHeader } from '@/components/page-header';
import { PaginatedList } from '@/components/paginated-list';
import { Tabs, TabsContent, TabsList, TabsTrigger } from '@/components/ui/tabs';
import { useMyDriverBookings, useMyRequesterBookings } from '../api/my-bookings';
import { BookingCard } from './booking-card';

export const REQUESTER_EMPTY_TEXT = 'No bookings on your requests yet.';

function DriverBookings() {
  return (
    <PaginatedList
      query={useMyDriverBookings()}
      what="your bookings"
      empty="No bookings yet. Browse requests to accept deliveries!"
      renderItem={(booking) => <BookingCard booking={booking} role="driver" />}
    />
  );
}

function RequesterBookings() {
  return (
    <PaginatedList
      query={useMyRequesterBookings()}
      what="bookings on your requests"
      empty={REQUESTER_EMPTY_TEXT}
      renderItem={(booking) => <BookingCard booking={booking} role="requester" />}
    />
  );
}

/**
 * Spec '/dashboard/bookings' ('My Bookings'), in two tabs: 'As driver' (the spec's list, the default) and 'As
 * requester' (offers and bookings on my requests). The tab is in the URL (?tab=requester), so a link (the
 * booking page's way back) can open it and a reload keeps it; only the open tab's list is loaded.
 */
export function MyBookings() {
  const [tab, setTab] = useTabParam<BookingRole>(['driver', 'requester']);
  const select = (value: string) => setTab(value === 'requester' ? 'requester' : 'driver');
  return (
    <div>
      <PageHeader title="My Bookings" />
      <Tabs value={tab} onValueChange={select}>
        <TabsList className="sm:w-auto">
          <TabsTrigger value="driver">As driver</TabsTrigger>
          <TabsTrigger value="requester">As requester</TabsTrigger>
        </TabsList>
        <TabsContent value="driver">
          <DriverBookings />
        </TabsContent>
        <TabsContent value="requester">
          <RequesterBookings />
        </TabsContent>
      </Tabs>
    </div>
  );
}

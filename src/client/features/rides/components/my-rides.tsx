import { Plus } from 'lucide-react';
import { useRef, useState } from 'react';
import { PageHeader } from '@/components/page-header';
import { PaginatedList } from '@/components/paginated-list';
import { Button } from '@/components/ui/button';
import { useMyRides } from '../api/my-rides';
import { MyRideCard } from './my-ride-card';
import { RideForm } from './ride-form';

const FORM_ID = 'post-ride-form';

/** Spec '/dashboard/rides' ('My Rides'). */
export function MyRides() {
  const rides = useMyRides();
  const [formOpen, setFormOpen] = useState(false);
  const toggleRef = useRef<HTMLButtonElement>(null);

  const closeForm = () => {
    setFormOpen(false);
    // Keyboard users continue from the button that opened the form, not from the top of the page.
    toggleRef.current?.focus();
  };

  return (
    <div>
      <PageHeader
        title="My Rides"
        actions={
          <Button
            ref={toggleRef}
            aria-expanded={formOpen}
            aria-controls={formOpen ? FORM_ID : undefined}
            onClick={() => setFormOpen((open) => !open)}
          >
            <Plus aria-hidden />
            Post New Ride
          </Button>
        }
      />
      {formOpen ? <RideForm id={FORM_ID} onDone={closeForm} /> : null}
      <PaginatedList
        query={rides}
        what="your rides"
        empty='No rides posted yet. Click "Post New Ride" to get started!'
        renderItem={(ride) => <MyRideCard ride={ride} />}
      />
    </div>
  );
}

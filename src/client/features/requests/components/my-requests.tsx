import { Plus } from 'lucide-react';
import { useRef, useState } from 'react';
import { PageHeader } from '@/components/page-header';
import { PaginatedList } from '@/components/paginated-list';
import { Button } from '@/components/ui/button';
import { useMyRequests } from '../api/my-requests';
import { MyRequestCard } from './my-request-card';
import { RequestForm } from './request-form';

const FORM_ID = 'create-request-form';

/** Spec '/dashboard/requests' ('My Requests'). */
export function MyRequests() {
  const requests = useMyRequests();
  const [formOpen, setFormOpen] = useState(false);
  const toggleRef = useRef<HTMLButtonElement>(null);

  const closeForm = () => {
    setFormOpen(false);
    toggleRef.current?.focus();
  };

  return (
    <div>
      <PageHeader
        title="My Requests"
        actions={
          <Button
            ref={toggleRef}
            aria-expanded={formOpen}
            aria-controls={formOpen ? FORM_ID : undefined}
            onClick={() => setFormOpen((open) => !open)}
          >
            <Plus aria-hidden />
            Create Request
          </Button>
        }
      />
      {formOpen ? <RequestForm id={FORM_ID} onDone={closeForm} /> : null}
      <PaginatedList
        query={requests}
        what="your requests"
        empty='No requests yet. Click "Create Request" to get started!'
        renderItem={(request) => <MyRequestCard request={request} />}
      />
    </div>
  );
}

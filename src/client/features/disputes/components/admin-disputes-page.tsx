import { useRef } from 'react';
import type { DisputeState } from '@shared/disputes';
import { PageHeader } from '@/components/page-header';
import { PaginatedList } from '@/components/paginated-list';
import { Tabs, TabsContent, TabsList, TabsTrigger } from '@/components/ui/tabs';
import { useTabParam } from '@/hooks/use-tab-param';
import { useOpenDisputes, useResolvedDisputes } from '../api/disputes';
import { AdminDisputeCard } from './admin-dispute-card';

function OpenDisputes() {
  // A decided dispute leaves the list: focus goes to the list's heading instead of being lost.
  const headingRef = useRef<HTMLHeadingElement>(null);
  return (
    <>
      <h2 ref={headingRef} tabIndex={-1} className="sr-only">
        Open disputes, oldest first
      </h2>
      <PaginatedList
        query={useOpenDisputes()}
        what="open disputes"
        empty="No open disputes."
        renderItem={(dispute) => <AdminDisputeCard dispute={dispute} onDecided={() => headingRef.current?.focus()} />}
      />
    </>
  );
}

function ResolvedDisputes() {
  return (
    <>
      <h2 className="sr-only">Resolved disputes, newest first</h2>
      <PaginatedList
        query={useResolvedDisputes()}
        what="resolved disputes"
        empty="No resolved disputes yet."
        renderItem={(dispute) => <AdminDisputeCard dispute={dispute} onDecided={() => undefined} />}
      />
    </>
  );
}

/**
 * '/dashboard/admin/disputes' (admins only): 'Open' disputes, oldest first, each with what a moderator needs to
 * decide and the decision form; 'Resolved' ones with their decision. The tab is in the address (?tab=resolved);
 * only the open tab's list is loaded.
 */
export function AdminDisputesPage() {
  const [tab, setTab] = useTabParam<DisputeState>(['open', 'resolved']);
  return (
    <div>
      <PageHeader title="Disputes" description="Problems reported on paid deliveries, for a moderator to decide." />
      <Tabs value={tab} onValueChange={(value) => setTab(value === 'resolved' ? 'resolved' : 'open')}>
        <TabsList className="sm:w-auto">
          <TabsTrigger value="open">Open</TabsTrigger>
          <TabsTrigger value="resolved">Resolved</TabsTrigger>
        </TabsList>
        <TabsContent value="open">
          <OpenDisputes />
        </TabsContent>
        <TabsContent value="resolved">
          <ResolvedDisputes />
        </TabsContent>
      </Tabs>
    </div>
  );
}

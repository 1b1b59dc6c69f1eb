import { PackagePlus } from 'lucide-react';
import { useId, useState } from 'react';
import type * as React from 'react';
import { Link } from '@/lib/router';
import type { Ride } from '@shared/marketplace';
import { ASK_TO_CARRY_LABEL, NO_OPEN_REQUESTS_TO_ASK } from '@shared/places';
import { PAGE_PATHS } from '@shared/routes';
import { QueryLoadError } from '@/components/query-load-error';
import { Button } from '@/components/ui/button';
import {
  Dialog,
  DialogContent,
  DialogDescription,
  DialogHeader,
  DialogTitle,
  DialogTrigger,
} from '@/components/ui/dialog';
import { FormDialogFooter } from '@/components/form-dialog';
import { Skeleton } from '@/components/ui/skeleton';
import { useAskToCarry, useMyOpenRequests } from '../api/asks';

const CHOOSE_MESSAGE = 'Choose one of your requests.';

/** The dialog's body: my open requests as a radio group (native radios: arrow keys move the choice), and 'Send'. */
function AskForm({ ride, onSent }: { ride: Ride; onSent: () => void }) {
  const id = useId();
  const requests = useMyOpenRequests(true);
  const ask = useAskToCarry(ride.id);
  const [chosen, setChosen] = useState<string | null>(null);
  const [missing, setMissing] = useState(false);

  if (requests.isPending) {
    return (
      <div role="status" className="space-y-3">
        <span className="sr-only">Loading your open requests...</span>
        <Skeleton className="h-10 w-full" />
        <Skeleton className="h-10 w-full" />
      </div>
    );
  }
  if (requests.isError) {
    return <QueryLoadError what="your open requests" error={requests.error} onRetry={() => void requests.refetch()} />;
  }
  if (requests.data.length === 0) {
    return (
      <div className="space-y-3">
        <p>{NO_OPEN_REQUESTS_TO_ASK}</p>
        <Button asChild variant="outline">
          <Link to={PAGE_PATHS.myRequests}>Go to My Requests</Link>
        </Button>
      </div>
    );
  }

  const send = (event: React.FormEvent) => {
    event.preventDefault();
    if (!chosen) return setMissing(true);
    ask.mutate(chosen, { onSuccess: onSent });
  };
  const errorId = `${id}-error`;
  return (
    <form noValidate onSubmit={send} className="space-y-4">
      <fieldset
        className="space-y-2"
        aria-invalid={missing || undefined}
        aria-describedby={missing ? errorId : undefined}
      >
        <legend className="mb-2 text-sm font-medium">Your open requests</legend>
        {requests.data.map((request) => (
          <label
            key={request.id}
            className="flex cursor-pointer items-start gap-3 rounded-md border p-3 has-[:checked]:border-primary has-[:focus-visible]:ring-2 has-[:focus-visible]:ring-ring"
          >
            <input
              type="radio"
              name={`${id}-request`}
              value={request.id}
              checked={chosen === request.id}
              onChange={() => {
                setChosen(request.id);
                setMissing(false);
              }}
              className="mt-1 size-5 shrink-0 accent-primary focus-visible:outline-none"
            />
            <span className="min-w-0">
              <span className="block break-words font-medium">{request.title}</span>
              <span className="block break-words text-sm text-muted-foreground">
                {request.pickup_location} → {request.delivery_location}
              </span>
            </span>
          </label>
        ))}
      </fieldset>
      {missing ? (
        <p id={errorId} role="alert" className="text-sm font-medium text-destructive">
          {CHOOSE_MESSAGE}
        </p>
      ) : null}
      <FormDialogFooter busy={ask.isPending} submitLabel="Send" busyLabel="Sending..." />
    </form>
  );
}

/**
 * Browse Rides: 'Ask to carry something' asks the ride's driver to carry one of my open requests (not on my own
 * rides: the server refuses that too). The requests load when the dialog opens (its content mounts then).
 */
export function AskToCarryButton({ ride }: { ride: Ride }) {
  const [open, setOpen] = useState(false);
  const route = `${ride.origin} → ${ride.destination}`;
  return (
    <Dialog open={open} onOpenChange={setOpen}>
      <DialogTrigger asChild>
        {/* The visible words first (label in name), then which ride, since every card has one. */}
        <Button variant="outline" aria-label={`${ASK_TO_CARRY_LABEL}: ${route}`}>
          <PackagePlus aria-hidden />
          {ASK_TO_CARRY_LABEL}
        </Button>
      </DialogTrigger>
      <DialogContent>
        <DialogHeader>
          <DialogTitle>{ASK_TO_CARRY_LABEL}</DialogTitle>
          <DialogDescription>
            Choose one of your open requests. {ride.poster_name} will be asked to carry it on {route}.
          </DialogDescription>
        </DialogHeader>
        <AskForm ride={ride} onSent={() => setOpen(false)} />
      </DialogContent>
    </Dialog>
  );
}

import { zodResolver } from '@hookform/resolvers/zod';
import { MapPinned, X } from 'lucide-react';
import { useState } from 'react';
import type * as React from 'react';
import { useForm } from 'react-hook-form';
import type { z } from 'zod';
import { rideStopsInputSchema, type Ride } from '@shared/marketplace';
import { STOPS_TEXT } from '@shared/plans';
import { ConfirmActionButton } from '@/components/confirm-action-button';
import { FormDialogContent, sendThenClose } from '@/components/form-dialog';
import { Button } from '@/components/ui/button';
import { Dialog, DialogTrigger } from '@/components/ui/dialog';
import { toastFirstError } from '@/lib/form-errors';
import { useEditRideStops } from '../api/edit-ride-stops';
import { RideStopsField } from './ride-stops-field';

type StopsInput = z.input<typeof rideStopsInputSchema>;

const stopsOf = (ride: Ride): StopsInput => ({
  stops: ride.stops.map((s) => ({ label: s.label, place_id: s.point?.place_id ?? null })),
});

/**
 * 'Edit stops' on one of my rides (Plus and Community): the ride's stops as they are, to add, change, reorder by
 * removing and adding, or remove; 'Save stops' replaces them all (PUT /rides/:id/stops).
 */
export function EditRideStopsDialog({ ride }: { ride: Ride }) {
  const [open, setOpen] = useState(false);
  const edit = useEditRideStops(ride);
  const form = useForm<StopsInput, unknown, z.output<typeof rideStopsInputSchema>>({
    resolver: zodResolver(rideStopsInputSchema),
    defaultValues: stopsOf(ride),
  });
  const route = `${ride.origin} → ${ride.destination}`;

  const submit = (event: React.FormEvent<HTMLFormElement>) =>
    form.handleSubmit(
      ({ stops }) =>
        sendThenClose(
          () => edit.mutateAsync(stops),
          () => setOpen(false),
        ),
      (errors) => toastFirstError(errors, ['stops']),
    )(event);

  return (
    <Dialog
      open={open}
      onOpenChange={(next) => {
        // Opened again: the ride's stops as they are now, not what was typed and cancelled.
        if (next) form.reset(stopsOf(ride));
        setOpen(next);
      }}
    >
      <DialogTrigger asChild>
        <Button type="button" variant="outline" size="sm" aria-label={`${STOPS_TEXT.edit}: ${route}`}>
          <MapPinned aria-hidden />
          {STOPS_TEXT.edit}
        </Button>
      </DialogTrigger>
      <FormDialogContent
        title={STOPS_TEXT.edit}
        description={route}
        onSubmit={submit}
        busy={edit.isPending}
        submitLabel={STOPS_TEXT.save}
        busyLabel="Saving..."
      >
        <RideStopsField form={form} idPrefix={`ride-${ride.id}`} />
      </FormDialogContent>
    </Dialog>
  );
}

/**
 * A Free member's ride that kept its stops from a paid plan (they stay, and along-the-route matching still follows
 * them): 'Remove stops' takes them all off, after asking. Editing them is a paid plan's.
 */
export function RemoveRideStopsButton({ ride }: { ride: Ride }) {
  const edit = useEditRideStops(ride);
  const route = `${ride.origin} → ${ride.destination}`;
  return (
    <ConfirmActionButton
      variant="outline"
      label={`${STOPS_TEXT.removeAll}: ${route}`}
      title={STOPS_TEXT.removeAllTitle}
      description={STOPS_TEXT.removeAllDescription(route)}
      confirmLabel={STOPS_TEXT.removeAll}
      busyLabel="Removing..."
      destructive
      onConfirm={() => edit.mutateAsync([])}
    >
      <X aria-hidden />
      {STOPS_TEXT.removeAll}
    </ConfirmActionButton>
  );
}

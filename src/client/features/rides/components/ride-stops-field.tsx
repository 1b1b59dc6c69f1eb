import { Plus, X } from 'lucide-react';
import { useCallback, useRef } from 'react';
import {
  useFieldArray,
  type ArrayPath,
  type FieldArray,
  type FieldValues,
  type Path,
  type UseFormReturn,
} from 'react-hook-form';
import { Link } from '@/lib/router';
import type { RideStopInput } from '@shared/marketplace';
import { MAX_RIDE_STOPS, STOPS_TEXT } from '@shared/plans';
import { PAGE_PATHS } from '@shared/routes';
import { PlaceController } from '@/components/form/schema-form-card';
import { Button } from '@/components/ui/button';

/** A form with a ride's stops under `stops` (the ride form, the 'Edit stops' dialog). */
type StopsForm = FieldValues & { stops?: RideStopInput[] | null };

/**
 * A ride's stops (Plus and Community, issue 38): 'Add a stop' up to MAX_RIDE_STOPS, each a place field like Origin
 * and Destination ('Stop 1', 'Stop 2', ...) with its 'Remove stop'. A new stop's field takes the focus; after a
 * removal the focus goes to 'Add a stop', so it is never lost with the removed row.
 */
export function RideStopsField<Input extends StopsForm, Output>({
  form,
  idPrefix,
}: {
  form: UseFormReturn<Input, unknown, Output>;
  idPrefix: string;
}) {
  const { fields, append, remove } = useFieldArray({ control: form.control, name: 'stops' as ArrayPath<Input> });
  // After a removal the focus goes to 'Add a stop': at once when it is there, else as soon as it comes back.
  const addButton = useRef<HTMLButtonElement | null>(null);
  const focusOnMount = useRef(false);
  const setAddButton = useCallback((el: HTMLButtonElement | null) => {
    addButton.current = el;
    if (el && focusOnMount.current) {
      focusOnMount.current = false;
      el.focus();
    }
  }, []);
  const errors = form.formState.errors.stops as
    ({ message?: unknown } & { [i: number]: { label?: { message?: unknown } } | undefined }) | undefined;
  const listError = typeof errors?.message === 'string' ? errors.message : undefined;

  return (
    <fieldset className="space-y-3 md:col-span-2" aria-describedby={`${idPrefix}-stops-hint`}>
      <legend className="text-sm font-medium">{STOPS_TEXT.heading}</legend>
      <p id={`${idPrefix}-stops-hint`} className="text-sm text-muted-foreground">
        Up to {MAX_RIDE_STOPS} places between origin and destination, in the order you pass them.
      </p>
      {fields.map((field, i) => {
        const message = errors?.[i]?.label?.message;
        return (
          <div key={field.id} className="flex flex-wrap items-start gap-2">
            <div className="min-w-0 flex-1">
              <PlaceController
                control={form.control}
                name={`stops.${i}.label` as Path<Input>}
                placeName={`stops.${i}.place_id` as Path<Input>}
                id={`${idPrefix}-stop-${i + 1}`}
                label={STOPS_TEXT.label(i + 1)}
                error={typeof message === 'string' ? message : undefined}
              />
            </div>
            <Button
              type="button"
              variant="outline"
              className="mt-8"
              aria-label={`${STOPS_TEXT.removeStop} ${i + 1}`}
              onClick={() => {
                remove(i);
                if (addButton.current) addButton.current.focus();
                else focusOnMount.current = true;
              }}
            >
              <X aria-hidden />
              {STOPS_TEXT.removeStop}
            </Button>
          </div>
        );
      })}
      {fields.length < MAX_RIDE_STOPS ? (
        <Button
          ref={setAddButton}
          type="button"
          variant="outline"
          onClick={() => append({ label: '', place_id: null } as FieldArray<Input, ArrayPath<Input>>)}
        >
          <Plus aria-hidden />
          {STOPS_TEXT.addStop}
        </Button>
      ) : null}
      {listError ? (
        <p role="alert" className="text-sm font-medium text-destructive">
          {listError}
        </p>
      ) : null}
    </fieldset>
  );
}

/** What a Free member sees instead: where the plans are. */
export function RideStopsUpsell() {
  return (
    <p className="text-sm md:col-span-2">
      <Link to={PAGE_PATHS.pricing} className="font-medium text-primary underline underline-offset-4">
        {STOPS_TEXT.upsell}
      </Link>
    </p>
  );
}

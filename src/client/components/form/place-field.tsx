import type * as React from 'react';
import { PICK_SUGGESTION_HINT } from '@shared/places';
import { Field, fieldAria } from '@/components/form/field';
import { PlaceCombobox } from '@/components/place-combobox';

/**
 * A labelled location field with place suggestions. Text typed without choosing a suggestion is kept as it is
 * (a farm address is in no gazetteer), and the hint under the field says it cannot be matched by distance.
 */
export function PlaceField({
  id,
  label,
  error,
  placeId,
  ...combobox
}: React.ComponentProps<typeof PlaceCombobox> & {
  label: string;
  error?: string;
  /** The chosen place, or null while the text is free. */
  placeId: number | null;
}) {
  const hint = combobox.value.trim() !== '' && placeId === null ? PICK_SUGGESTION_HINT : undefined;
  return (
    <Field id={id} label={label} error={error} hint={hint}>
      <PlaceCombobox {...combobox} {...fieldAria(id, error, hint)} />
    </Field>
  );
}

import { useQueryClient } from '@tanstack/react-query';
import { SlidersHorizontal } from 'lucide-react';
import { useState } from 'react';
import type * as React from 'react';
import { useSearchParams } from '@/lib/router';
import { CLEAR_FILTERS_LABEL, DEFAULT_WITHIN_MILES, FILTER_LABELS, WITHIN_MILES } from '@shared/places';
import { VERIFIED_FILTER_LABEL } from '@shared/verification';
import { Field, fieldAria } from '@/components/form/field';
import { InputField } from '@/components/form/input-field';
import { PlaceField } from '@/components/form/place-field';
import { Button } from '@/components/ui/button';
import { Checkbox } from '@/components/ui/checkbox';
import { Label } from '@/components/ui/label';
import { VerifiedBadge } from '@/components/verified-badge';
import { NativeSelect } from '@/components/ui/select';
import { rememberPlace, usePlace } from '@/lib/place-suggestions';
import { cn } from '@/lib/utils';
import {
  apiFilters,
  draftFromParams,
  FILTER_KEYS,
  paramsFromDraft,
  type FilterDraft,
  type FilterErrors,
} from '../lib/filter-params';

const EMPTY: FilterDraft = {
  nearText: '',
  near: null,
  within: String(DEFAULT_WITHIN_MILES),
  from: '',
  to: '',
  q: '',
  verified: false,
};
export const WITHIN_NEEDS_NEAR_HINT = 'Pick a place in Near first.';

/**
 * The filters of a Browse page: Near (a chosen place), Within, From, To, Search and 'Verified members only'. 'Apply filters'
 * writes them into the URL (a new history entry: Back returns to the previous filters, a copied link shows the
 * same), which is what the list reads. On narrow screens they fold under a 'Filters' button.
 */
export function BrowseFilterBar({
  idPrefix,
  label,
  serverErrors,
}: {
  idPrefix: string;
  /** Names the search landmark, e.g. 'Filter rides'. */
  label: string;
  /** The server's refusal of the URL's filters, by field. */
  serverErrors: FilterErrors | null;
}) {
  const [params, setParams] = useSearchParams();
  const applied = Object.keys(apiFilters(params)).filter((k) => k !== 'within').length;
  const [open, setOpen] = useState(applied > 0 || serverErrors !== null);
  const panelId = `${idPrefix}-filters`;
  return (
    <div className="mb-6">
      <Button
        type="button"
        variant="outline"
        className="mb-3 md:hidden"
        aria-expanded={open}
        aria-controls={panelId}
        onClick={() => setOpen((o) => !o)}
      >
        <SlidersHorizontal aria-hidden />
        {applied ? `Filters (${applied})` : 'Filters'}
      </Button>
      <div id={panelId} className={cn(!open && 'hidden', 'md:block')}>
        <FilterForm
          idPrefix={idPrefix}
          label={label}
          params={params}
          serverErrors={serverErrors}
          applied={applied > 0}
          onApply={(next) => setParams(next)}
        />
      </div>
    </div>
  );
}

function FilterForm({
  idPrefix,
  label,
  params,
  serverErrors,
  applied,
  onApply,
}: {
  idPrefix: string;
  label: string;
  params: URLSearchParams;
  serverErrors: FilterErrors | null;
  applied: boolean;
  onApply: (params: URLSearchParams) => void;
}) {
  const [draft, setDraft] = useState(() => draftFromParams(params));
  const [errors, setErrors] = useState<FilterErrors>({});
  // Back, Forward and a followed link show the filters of their URL (the fields keep focus meanwhile).
  const search = params.toString();
  const [shownSearch, setShownSearch] = useState(search);
  if (shownSearch !== search) {
    setShownSearch(search);
    setDraft(draftFromParams(params));
    setErrors({});
  }
  // A place from the URL is its id: the field shows its label once read (at once when it was just chosen here).
  const queryClient = useQueryClient();
  const named = usePlace(draft.nearText === '' ? draft.near : null).data;
  const nearText = draft.nearText || (named && named.id === draft.near ? named.label : '');
  const id = (field: string) => `${idPrefix}-${field}`;
  const set = (patch: Partial<FilterDraft>) => setDraft((d) => ({ ...d, ...patch }));
  const dirty = JSON.stringify(draft) !== JSON.stringify(EMPTY);
  // The server's refusal of this URL's filters (it arrives after the form is shown), then my own checks.
  const shown = { ...serverErrors, ...errors };

  const submit = (e: React.FormEvent) => {
    e.preventDefault();
    const result = paramsFromDraft(draft);
    if (result.errors) {
      setErrors(result.errors);
      const first = FILTER_KEYS.find((k) => result.errors[k]);
      if (first) document.getElementById(id(first))?.focus();
      return;
    }
    setErrors({});
    onApply(result.params);
  };
  const clear = () => {
    setDraft(EMPTY);
    setErrors({});
    onApply(new URLSearchParams());
    document.getElementById(id('near'))?.focus();
  };

  return (
    <form
      role="search"
      aria-label={label}
      noValidate
      onSubmit={submit}
      className="grid gap-4 rounded-lg border p-4 sm:grid-cols-2 lg:grid-cols-[2fr_1fr_1fr_1fr_2fr]"
    >
      <PlaceField
        id={id('near')}
        label={FILTER_LABELS.near}
        value={nearText}
        placeId={draft.near}
        error={shown.near}
        onValueChange={(text, place) => {
          if (place) rememberPlace(queryClient, place);
          set({ nearText: text, near: place?.id ?? null });
        }}
      />
      <Field
        id={id('within')}
        label={FILTER_LABELS.within}
        error={shown.within}
        hint={draft.near ? undefined : WITHIN_NEEDS_NEAR_HINT}
      >
        <NativeSelect
          {...fieldAria(id('within'), shown.within, draft.near ? undefined : WITHIN_NEEDS_NEAR_HINT)}
          value={draft.within}
          disabled={!draft.near}
          onChange={(e) => set({ within: e.target.value })}
        >
          {WITHIN_MILES.map((miles) => (
            <option key={miles} value={String(miles)}>
              {miles} miles
            </option>
          ))}
        </NativeSelect>
      </Field>
      <InputField
        id={id('from')}
        label={FILTER_LABELS.from}
        type="date"
        value={draft.from}
        error={shown.from}
        onChange={(e) => set({ from: e.target.value })}
      />
      <InputField
        id={id('to')}
        label={FILTER_LABELS.to}
        type="date"
        value={draft.to}
        error={shown.to}
        onChange={(e) => set({ to: e.target.value })}
      />
      <InputField
        id={id('q')}
        label={FILTER_LABELS.q}
        type="search"
        value={draft.q}
        error={shown.q}
        onChange={(e) => set({ q: e.target.value })}
      />
      <div className="flex flex-col gap-1 sm:col-span-2 lg:col-span-5">
        <div className="flex items-center gap-2">
          <Checkbox
            id={id('verified')}
            checked={draft.verified}
            aria-describedby={shown.verified ? `${id('verified')}-error` : undefined}
            aria-invalid={shown.verified ? true : undefined}
            onCheckedChange={(checked) => set({ verified: checked === true })}
          />
          <Label htmlFor={id('verified')}>{VERIFIED_FILTER_LABEL}</Label>
          <VerifiedBadge />
        </div>
        {shown.verified ? (
          <p id={`${id('verified')}-error`} className="text-sm text-destructive">
            {shown.verified}
          </p>
        ) : null}
      </div>
      <div className="flex flex-wrap gap-2 sm:col-span-2 lg:col-span-5">
        <Button type="submit">Apply filters</Button>
        {applied || dirty ? (
          <Button type="button" variant="outline" onClick={clear}>
            {CLEAR_FILTERS_LABEL}
          </Button>
        ) : null}
      </div>
    </form>
  );
}

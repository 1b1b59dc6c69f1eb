import { BookmarkPlus } from 'lucide-react';
import { useId, useState } from 'react';
import type * as React from 'react';
import { useSearchParams } from '@/lib/router';
import {
  placeIdSchema,
  SAVE_SEARCH_LABEL,
  SAVED_SEARCH_LIMIT_MESSAGE,
  savedSearchInputSchema,
  type SavedSearch,
} from '@shared/places';
import { Field, fieldAria } from '@/components/form/field';
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
import { Input } from '@/components/ui/input';
import { ApiError } from '@/lib/api-client';
import { usePlace } from '@/lib/place-suggestions';
import { toastError } from '@/lib/toast';
import { useCreateSavedSearch } from '../api/saved-searches';
import { describeFilters, filtersFromQuery, suggestedName, type FilterValues } from '../lib/describe';

/** The dialog's form: 'Name', prefilled; the filters are the page's, as its URL holds them. */
function SaveSearchForm({
  kind,
  filters,
  nearLabel,
  onSaved,
}: {
  kind: SavedSearch['kind'];
  filters: FilterValues;
  nearLabel: string | null;
  onSaved: () => void;
}) {
  const id = useId();
  const save = useCreateSavedSearch();
  // The suggested name until the person types one (the Near place's label may arrive after the dialog opened).
  const [typed, setName] = useState<string | null>(null);
  const name = typed ?? suggestedName(kind, filters, nearLabel);
  const [error, setError] = useState<string>();
  const nameId = `${id}-name`;

  const submit = (event: React.FormEvent) => {
    event.preventDefault();
    const parsed = savedSearchInputSchema.safeParse({ name, kind, filters });
    if (!parsed.success) {
      const issue = parsed.error.issues[0]!;
      if (issue.path[0] === 'name') return setError(issue.message);
      // The page's URL was edited into filters Browse refuses too.
      return toastError('Validation Error', issue.message);
    }
    setError(undefined);
    save.mutate(parsed.data, {
      onSuccess: onSaved,
      onError: (err) => {
        if (err instanceof ApiError && err.message === SAVED_SEARCH_LIMIT_MESSAGE) setError(err.message);
      },
    });
  };

  return (
    <form noValidate onSubmit={submit} className="space-y-4">
      <Field id={nameId} label="Name" error={error}>
        <Input
          {...fieldAria(nameId, error)}
          aria-required
          autoComplete="off"
          value={name}
          onChange={(event) => setName(event.target.value)}
        />
      </Field>
      <FormDialogFooter busy={save.isPending} submitLabel="Save" busyLabel="Saving..." />
    </form>
  );
}

/**
 * 'Save this search' on Browse Requests and Browse Rides: names the page's current filters (from its URL) and saves
 * them, so new matches are announced (Settings > Alerts). The 'Near' place's name ('Decatur, IL') is read by the
 * URL's place id (the filter bar reads the same, so it is cached by then).
 */
export function SaveSearchButton({ kind }: { kind: SavedSearch['kind'] }) {
  const [query] = useSearchParams();
  const [open, setOpen] = useState(false);
  const filters = filtersFromQuery(query);
  const nearId = placeIdSchema.safeParse(filters.near);
  const nearLabel = usePlace(nearId.success ? nearId.data : null).data?.label ?? null;
  return (
    <Dialog open={open} onOpenChange={setOpen}>
      <DialogTrigger asChild>
        <Button variant="outline">
          <BookmarkPlus aria-hidden />
          {SAVE_SEARCH_LABEL}
        </Button>
      </DialogTrigger>
      <DialogContent>
        <DialogHeader>
          <DialogTitle>{SAVE_SEARCH_LABEL}</DialogTitle>
          <DialogDescription>
            {describeFilters(kind, filters, nearLabel)}. We&apos;ll tell you when something new matches.
          </DialogDescription>
        </DialogHeader>
        <SaveSearchForm kind={kind} filters={filters} nearLabel={nearLabel} onSaved={() => setOpen(false)} />
      </DialogContent>
    </Dialog>
  );
}

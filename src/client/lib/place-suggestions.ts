import { keepPreviousData, useQuery, type QueryClient } from '@tanstack/react-query';
import { placeListSchema, placeSchema, SUGGEST_MIN_CHARS, type Place } from '@shared/places';
import { useDebouncedValue } from '@/hooks/use-debounced-value';
import { api } from './api-client';
import { queryKeys } from './query-keys';

/** Long enough to skip the keystrokes of a word typed at speed, short enough to feel immediate. */
export const SUGGEST_DEBOUNCE_MS = 150;

/** What the server searches for: the same for 'springfield ' and 'Springfield', so the cache answers both. */
const normalize = (text: string) => text.trim().replace(/\s+/g, ' ').toLowerCase();

/**
 * GET /places?q= for `text` once typing pauses. A query whose text changed before it answered is aborted (TanStack
 * Query cancels a fetch whose signal was taken when nothing observes it any more). A failed load stays silent:
 * suggestions are a help, and the field takes free text anyway. `current` is false while the list shown is still
 * the previous text's (so it is not announced as the answer).
 */
export function usePlaceSuggestions(text: string, enabled: boolean): { places: Place[]; current: boolean } {
  const q = useDebouncedValue(normalize(text), SUGGEST_DEBOUNCE_MS);
  const wanted = enabled && normalize(text).length >= SUGGEST_MIN_CHARS;
  const query = useQuery({
    queryKey: queryKeys.placeSuggestions(q),
    queryFn: async ({ signal }) =>
      placeListSchema.parse(await api(`/places?${new URLSearchParams({ q }).toString()}`, { signal })).items,
    enabled: wanted && q.length >= SUGGEST_MIN_CHARS,
    staleTime: Infinity,
    gcTime: 10 * 60_000,
    placeholderData: keepPreviousData,
    retry: false,
  });
  if (!wanted || !query.data) return { places: [], current: false };
  return { places: query.data, current: !query.isPlaceholderData && q === normalize(text) };
}

/**
 * GET /places/:id: a place a link names by id only (`near=12` in a Browse link or an alert's notification), for its
 * label. Cached for the session like the suggestions; `id` null asks nothing. An unknown id stays without data (the
 * list's own 400 says so by the field).
 */
export function usePlace(id: number | null) {
  return useQuery({
    queryKey: queryKeys.place(id ?? 0),
    queryFn: async ({ signal }) => placeSchema.parse(await api(`/places/${id}`, { signal })),
    enabled: id !== null,
    staleTime: Infinity,
  });
}

/** A chosen suggestion is that place: remembered, so showing it by id later asks nothing. */
export function rememberPlace(queryClient: QueryClient, place: Place) {
  queryClient.setQueryData(queryKeys.place(place.id), place);
}

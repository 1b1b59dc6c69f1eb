import { formatLongDate } from '@shared/dates';
import { DEFAULT_WITHIN_MILES, SAVED_SEARCH_NAME_MAX, type SavedSearch } from '@shared/places';

type Kind = SavedSearch['kind'];

/** Browse filters as read from a URL or a saved search: strings (or numbers), absent when unset. */
export interface FilterValues {
  near?: string | number;
  within?: string | number;
  from?: string | number;
  to?: string | number;
  q?: string | number;
}

const KIND_WORD: Record<Kind, string> = { requests: 'Requests', rides: 'Rides' };

/** The filters of a Browse page's query string (near, within, from, to, q); empty ones left out. */
export function filtersFromQuery(query: URLSearchParams): FilterValues {
  const filters: FilterValues = {};
  for (const key of ['near', 'within', 'from', 'to', 'q'] as const) {
    const value = query.get(key)?.trim();
    if (value) filters[key] = value;
  }
  // 'Within' means something only with 'Near'.
  if (filters.near === undefined) delete filters.within;
  return filters;
}

function dateRange(from?: string | number, to?: string | number): string | null {
  if (from && to) return `from ${formatLongDate(String(from))} to ${formatLongDate(String(to))}`;
  if (from) return `from ${formatLongDate(String(from))}`;
  if (to) return `until ${formatLongDate(String(to))}`;
  return null;
}

/**
 * What a saved search matches, in words: 'Requests near Decatur, IL within 25 mi, from May 1, 2026, with the words
 * "feed"'; without filters, 'Every new request'. A place whose name is unknown is 'the chosen place'.
 */
export function describeFilters(kind: Kind, filters: FilterValues, nearLabel: string | null): string {
  const parts: string[] = [];
  if (filters.near !== undefined)
    parts.push(`near ${nearLabel ?? 'the chosen place'} within ${filters.within ?? DEFAULT_WITHIN_MILES} mi`);
  const dates = dateRange(filters.from, filters.to);
  if (dates) parts.push(dates);
  if (filters.q) parts.push(`with the words "${filters.q}"`);
  if (parts.length === 0) return kind === 'requests' ? 'Every new request' : 'Every new ride';
  return `${KIND_WORD[kind]} ${parts.join(', ')}`;
}

/** The name 'Save this search' suggests: 'Requests near Decatur, IL', else by the words or the dates searched. */
export function suggestedName(kind: Kind, filters: FilterValues, nearLabel: string | null): string {
  const word = KIND_WORD[kind];
  let name: string;
  if (filters.near !== undefined) name = `${word} near ${nearLabel ?? 'the chosen place'}`;
  else if (filters.q) name = `${word} with "${filters.q}"`;
  else {
    const dates = dateRange(filters.from, filters.to);
    name = dates ? `${word} ${dates}` : `All ${word.toLowerCase()}`;
  }
  return name.slice(0, SAVED_SEARCH_NAME_MAX);
}

import { isValidIsoDate } from '@shared/dates';
import {
  browseFiltersSchema,
  DATE_MESSAGE,
  DATE_ORDER_MESSAGE,
  DEFAULT_WITHIN_MILES,
  PLACE_NOT_FOUND,
  SEARCH_MESSAGE,
  VERIFIED_FILTER_MESSAGE,
  WITHIN_MESSAGE,
} from '@shared/places';
import { NUL_MESSAGE } from '@shared/text';
import { ApiError } from '@/lib/api-client';

/**
 * Browse filters in the URL: the API's own parameters (near, within, from, to, q, verified), so a shared link asks
 * the server exactly what the page showed. The Near place is its id only: the field shows its label read by id
 * (GET /places/:id, cached), as a link built by the server (an alert's) or edited by hand names no label. Older
 * links' `near_label` is ignored: the id alone says which place it is.
 */
export const FILTER_KEYS = ['near', 'within', 'from', 'to', 'q', 'verified'] as const;
export type FilterField = (typeof FILTER_KEYS)[number];

/** What the filter bar edits before 'Apply filters'. */
export interface FilterDraft {
  /**
   * The Near field's text, and the place chosen from its suggestions (only a chosen place filters). From a URL the
   * text is empty: the field shows the place's label read by its id.
   */
  nearText: string;
  near: number | null;
  within: string;
  from: string;
  to: string;
  q: string;
  /** 'Verified members only' (issue 37): `verified=1`. */
  verified: boolean;
}

export type FilterErrors = Partial<Record<FilterField, string>>;

/** The filters of a URL, as sent to the server: unchecked, so a bad link gets the server's own 400 message. */
export function apiFilters(params: URLSearchParams): Record<string, string> {
  const out: Record<string, string> = {};
  for (const key of FILTER_KEYS) {
    const value = params.get(key);
    if (value !== null && value !== '' && (key !== 'within' || params.has('near'))) out[key] = value;
  }
  return out;
}

export function draftFromParams(params: URLSearchParams): FilterDraft {
  const near = Number(params.get('near'));
  return {
    nearText: '',
    near: Number.isInteger(near) && near > 0 ? near : null,
    within: params.get('within') ?? String(DEFAULT_WITHIN_MILES),
    from: params.get('from') ?? '',
    to: params.get('to') ?? '',
    q: params.get('q') ?? '',
    verified: params.get('verified') === '1' || params.get('verified') === 'true',
  };
}

/**
 * The URL for a draft, or the messages by field when the draft is not valid (checked by the very schema the
 * server reads it with). Empty filters are left out; Within only comes with Near.
 */
export function paramsFromDraft(
  draft: FilterDraft,
): { params: URLSearchParams; errors?: undefined } | { params?: undefined; errors: FilterErrors } {
  const input = {
    near: draft.near ?? undefined,
    within: draft.near ? draft.within : undefined,
    from: draft.from,
    to: draft.to,
    q: draft.q,
    verified: draft.verified ? '1' : undefined,
  };
  const parsed = browseFiltersSchema.safeParse(input);
  if (!parsed.success) {
    const errors: FilterErrors = {};
    for (const issue of parsed.error.issues) {
      const field = issue.path[0] as FilterField;
      errors[field] ??= issue.message;
    }
    return { errors };
  }
  const params = new URLSearchParams();
  const { near, within, from, to, q, verified } = parsed.data;
  if (near) {
    params.set('near', String(near));
    params.set('within', String(within));
  }
  if (from) params.set('from', from);
  if (to) params.set('to', to);
  if (q) params.set('q', q);
  if (verified) params.set('verified', verified);
  return { params };
}

/** Which field a Browse 400 is about, from the contract's messages; null for a refusal that is not a filter's. */
export function filterErrorsOf(error: unknown, params: URLSearchParams): FilterErrors | null {
  if (!(error instanceof ApiError) || error.status !== 400) return null;
  const message = error.message;
  if (message === DATE_ORDER_MESSAGE) return { to: message };
  if (message === DATE_MESSAGE) {
    const from = params.get('from')?.trim();
    return from && !isValidIsoDate(from) ? { from: message } : { to: message };
  }
  if (message === WITHIN_MESSAGE) return { within: message };
  if (message === PLACE_NOT_FOUND) return { near: message };
  if (message === SEARCH_MESSAGE || message === NUL_MESSAGE) return { q: message };
  if (message === VERIFIED_FILTER_MESSAGE) return { verified: message };
  return null;
}

import { formatLongDate } from '@shared/dates';

/** 'active' -> 'Active' (spec: capitalised status). */
export function capitalize(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}

/** 'November 21, 2026', or 'November 21, 2026 at 09:30' when a time is set (spec: ' at ' and the time). */
export function formatDateWithTime(date: string, time: string | null): string {
  const day = formatLongDate(date);
  return time ? `${day} at ${time.slice(0, 5)}` : day;
}

/** An instant in the reader's own timezone, e.g. 'Nov 21, 2026, 9:30 AM'. */
export function formatInstant(iso: string): string {
  return new Date(iso).toLocaleString('en-US', { dateStyle: 'medium', timeStyle: 'short' });
}

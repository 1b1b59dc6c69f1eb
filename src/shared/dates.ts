/** Calendar dates travel as 'YYYY-MM-DD' strings; instants as ISO timestamps. */
const ISO_DATE = /^\d{4}-\d{2}-\d{2}$/;

export function isValidIsoDate(value: string): boolean {
  if (!ISO_DATE.test(value)) return false;
  const d = new Date(`${value}T00:00:00Z`);
  return !Number.isNaN(d.getTime()) && d.toISOString().slice(0, 10) === value;
}

/** Today's date where the browser is. */
export function localToday(now = new Date()): string {
  const y = now.getFullYear();
  const m = String(now.getMonth() + 1).padStart(2, '0');
  const d = String(now.getDate()).padStart(2, '0');
  return `${y}-${m}-${d}`;
}

/**
 * The earliest calendar date that is still "today" somewhere on Earth (UTC-12). The server refuses dates before
 * it as past, so a user late in the evening in any timezone is never told their today is in the past.
 */
export function earliestToday(now = new Date()): string {
  return new Date(now.getTime() - 12 * 60 * 60_000).toISOString().slice(0, 10);
}

/** 'November 21, 2026' in UTC: one formatter, built once (toLocaleDateString builds one per call). */
export const LONG_DATE_UTC = new Intl.DateTimeFormat('en-US', {
  month: 'long',
  day: 'numeric',
  year: 'numeric',
  timeZone: 'UTC',
});

/** '2026-11-21' -> 'November 21, 2026' (spec: long format, month name, day, year), independent of timezone. */
export function formatLongDate(isoDate: string): string {
  return LONG_DATE_UTC.format(new Date(`${isoDate}T12:00:00Z`));
}

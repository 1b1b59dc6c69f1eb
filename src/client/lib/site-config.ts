import { useSyncExternalStore } from 'react';
import { formatLongDate, localToday } from '@shared/dates';
import {
  DEFAULT_SITE_CONFIG,
  isTokenValue,
  SITE_CONFIG_ELEMENT_ID,
  SITE_CONFIG_TOKENS,
  type SiteConfig,
} from '@shared/site-config';

let cached: SiteConfig | undefined;

/**
 * The served page's configuration. While prerendering (no document) it is the placeholder tokens the server
 * later replaces; in the browser it is the JSON the server wrote into the page (defaults where a value is
 * missing, as under the Vite dev server).
 */
export function getSiteConfig(): SiteConfig {
  if (typeof document === 'undefined') return SITE_CONFIG_TOKENS;
  if (cached) return cached;
  const defaults = DEFAULT_SITE_CONFIG();
  let served: Partial<SiteConfig> = {};
  try {
    served = JSON.parse(document.getElementById(SITE_CONFIG_ELEMENT_ID)?.textContent ?? '{}') as Partial<SiteConfig>;
  } catch {
    /* unreadable: defaults */
  }
  const pick = (key: keyof SiteConfig) => {
    const v = served[key];
    return typeof v === 'string' && v && !isTokenValue(v) ? v : defaults[key];
  };
  cached = {
    supportEmail: pick('supportEmail'),
    supportPhone: pick('supportPhone'),
    supportPhoneHref: pick('supportPhoneHref'),
    today: pick('today'),
    todayLong: pick('todayLong'),
  };
  return cached;
}

function msUntilTomorrow(now = new Date()): number {
  const next = new Date(now.getFullYear(), now.getMonth(), now.getDate() + 1);
  return next.getTime() - now.getTime() + 1000;
}

function subscribeToMidnight(onChange: () => void): () => void {
  let timer: ReturnType<typeof setTimeout>;
  const arm = () => {
    timer = setTimeout(() => {
      onChange();
      arm();
    }, msUntilTomorrow());
  };
  arm();
  return () => clearTimeout(timer);
}

/**
 * Today's date in long format. The first (hydrating) render uses the date the server wrote into the page, so it
 * matches the prerendered HTML; React then re-renders with the visitor's own calendar day if that differs.
 */
export function useTodayLong(): string {
  const config = getSiteConfig();
  const iso = useSyncExternalStore(
    subscribeToMidnight,
    () => localToday(),
    () => config.today,
  );
  return iso === config.today ? config.todayLong : formatLongDate(iso);
}

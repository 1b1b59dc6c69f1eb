import { formatLongDate, localToday } from './dates';

/** Shown on /contact and in the policies until the operator configures SUPPORT_EMAIL / SUPPORT_PHONE. */
export const DEFAULT_SUPPORT_EMAIL = 'support@ruralroute.app';
export const DEFAULT_SUPPORT_PHONE = '1-800-555-0199';

/** A plain e-mail address: nothing in it needs escaping in HTML, an attribute or JSON. */
export const SUPPORT_EMAIL_PATTERN = /^[A-Za-z0-9._+-]+@[A-Za-z0-9-]+(\.[A-Za-z0-9-]+)*\.[A-Za-z]{2,}$/;

/** A phone number as people write it: digits, spaces, +, -, ., parentheses (nothing that needs HTML escaping). */
export const SUPPORT_PHONE_PATTERN = /^\+?[0-9(][0-9 ().-]{2,28}[0-9]$/;

/** 'tel:' form of a phone number (digits and a leading +). */
export function phoneHref(phone: string): string {
  return `tel:${phone.replace(/[^\d+]/g, '')}`;
}

/**
 * Values the public pages show that are only known when a page is served: the configured support e-mail and
 * phone (runtime env), and today's date for the policies' 'Last updated'. Pages are prerendered at build time
 * with the tokens below in their place; the server writes the real values into the HTML it sends, including a
 * JSON copy the browser reads so hydration renders exactly the same text.
 */
export interface SiteConfig {
  supportEmail: string;
  supportPhone: string;
  /** 'tel:' link for supportPhone. */
  supportPhoneHref: string;
  /** 'YYYY-MM-DD' where the page was served. */
  today: string;
  /** `today` in the spec's long format, e.g. 'November 21, 2026'. */
  todayLong: string;
}

/** Placeholders as they appear in prerendered HTML. None is a prefix of another. */
export const SITE_CONFIG_TOKENS: SiteConfig = {
  supportEmail: '__RR_SUPPORT_EMAIL__',
  supportPhone: '__RR_SUPPORT_PHONE__',
  supportPhoneHref: '__RR_SUPPORT_PHONE_HREF__',
  today: '__RR_TODAY__',
  todayLong: '__RR_TODAY_LONG__',
};

export const SITE_CONFIG_ELEMENT_ID = 'rr-site-config';

export function siteConfigFor(supportEmail: string, supportPhone: string, now = new Date()): SiteConfig {
  const today = localToday(now);
  return {
    supportEmail,
    supportPhone,
    supportPhoneHref: phoneHref(supportPhone),
    today,
    todayLong: formatLongDate(today),
  };
}

export const DEFAULT_SITE_CONFIG = (now = new Date()) =>
  siteConfigFor(DEFAULT_SUPPORT_EMAIL, DEFAULT_SUPPORT_PHONE, now);

const escapeHtml = (s: string) =>
  s.replace(/[&<>"']/g, (ch) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[ch]!);

/**
 * Writes `config` over the tokens in a page. Values are HTML-escaped (they land in text, attributes and a JSON
 * block); the env schema already restricts them to characters that need no escaping in either.
 */
export function fillSiteConfig(html: string, config: SiteConfig): string {
  let out = html;
  for (const key of Object.keys(SITE_CONFIG_TOKENS) as (keyof SiteConfig)[]) {
    out = out.replaceAll(SITE_CONFIG_TOKENS[key], escapeHtml(config[key]));
  }
  return out;
}

/** True when the page still carries tokens (e.g. under the Vite dev server, which serves index.html as is). */
export function isTokenValue(value: string): boolean {
  return /^__RR_[A-Z_]+__$/.test(value);
}

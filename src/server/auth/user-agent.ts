import Bowser from 'bowser';

/**
 * A browser in words from its User-Agent header, e.g. 'Chrome on Windows' (the new-browser notice, and the list
 * of signed-in browsers). Anything unrecognised reads 'an unknown browser'.
 */
export function browserLabel(userAgent: string | null | undefined): string {
  if (!userAgent) return 'an unknown browser';
  let browser = '';
  let os = '';
  try {
    const parsed = Bowser.parse(userAgent.slice(0, 512));
    browser = parsed.browser.name ?? '';
    os = parsed.os.name ?? '';
  } catch {
    // An unparseable header is as good as none.
  }
  if (browser && os) return `${browser} on ${os}`;
  return browser || (os ? `a browser on ${os}` : 'an unknown browser');
}

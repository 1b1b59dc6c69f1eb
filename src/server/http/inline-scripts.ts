import { createHash } from 'node:crypto';

/**
 * The Content-Security-Policy sources ('sha256-…') of the inline scripts the built pages run: a prerendered page's
 * boot code is written into it (vite.config.ts, bootAfterPaint) so that it costs no round trip of its own. Only
 * those exact texts may run inline; data blocks (type="application/json") run nothing and need none.
 */
export function inlineScriptSources(pages: Iterable<string>): string[] {
  const sources = new Set<string>();
  for (const html of pages)
    for (const [, attributes = '', code = ''] of html.matchAll(/<script(\s[^>]*)?>([\s\S]*?)<\/script>/gi)) {
      if (/\ssrc=/i.test(attributes) || /\stype="application\/json"/i.test(attributes) || !code) continue;
      sources.add(`'sha256-${createHash('sha256').update(code, 'utf8').digest('base64')}'`);
    }
  return [...sources];
}

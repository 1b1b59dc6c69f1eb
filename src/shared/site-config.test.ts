import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { fillSiteConfig, isTokenValue, SITE_CONFIG_ELEMENT_ID, SITE_CONFIG_TOKENS, siteConfigFor } from './site-config';

describe('site config', () => {
  it('is computed from the support settings and the day', () => {
    const config = siteConfigFor('help@valley.example', '+1 (555) 010-2000', new Date(2026, 10, 21, 23, 30));
    expect(config).toEqual({
      supportEmail: 'help@valley.example',
      supportPhone: '+1 (555) 010-2000',
      supportPhoneHref: 'tel:+15550102000',
      today: '2026-11-21',
      todayLong: 'November 21, 2026',
    });
  });

  it('replaces every token, everywhere, and nothing else', () => {
    const t = SITE_CONFIG_TOKENS;
    const html = `<a href="mailto:${t.supportEmail}">${t.supportEmail}</a><a href="${t.supportPhoneHref}">${t.supportPhone}</a><p>Last updated: ${t.todayLong}</p><script>${JSON.stringify(t)}</script>`;
    const config = siteConfigFor('a@b.example', '1-800-555-0100', new Date(2027, 0, 2));
    const out = fillSiteConfig(html, config);
    expect(out).not.toMatch(/__RR_/);
    expect(out).toContain('<a href="mailto:a@b.example">a@b.example</a>');
    expect(out).toContain('<a href="tel:18005550100">1-800-555-0100</a>');
    expect(out).toContain('Last updated: January 2, 2027');
    expect(JSON.parse(out.match(/<script>(.*)<\/script>/)![1]!)).toEqual(config);
  });

  it('escapes values for HTML should one ever carry markup', () => {
    const config = { ...siteConfigFor('a@b.example', '1-800-555-0100'), supportEmail: '<b>"x"</b>' };
    expect(fillSiteConfig(SITE_CONFIG_TOKENS.supportEmail, config)).toBe('&lt;b&gt;&quot;x&quot;&lt;/b&gt;');
  });

  it('has tokens no other token contains, recognised as such', () => {
    const tokens = Object.values(SITE_CONFIG_TOKENS);
    for (const a of tokens) {
      expect(isTokenValue(a)).toBe(true);
      for (const b of tokens) if (a !== b) expect(b.includes(a)).toBe(false);
    }
    expect(isTokenValue('support@ruralroute.app')).toBe(false);
  });

  it('is carried by index.html, so every page the server sends has it', () => {
    const html = readFileSync(new URL('../../index.html', import.meta.url), 'utf8');
    const block = html.match(
      new RegExp(`<script id="${SITE_CONFIG_ELEMENT_ID}" type="application/json">([^<]*)</script>`),
    );
    expect(block).not.toBeNull();
    expect(JSON.parse(block![1]!)).toEqual(SITE_CONFIG_TOKENS);
  });
});

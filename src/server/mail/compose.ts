import type { Mail } from './mailer';

const PRODUCT = 'RuralRoute';

export const escapeHtml = (s: string) =>
  s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&#39;');

/** One paragraph of an account mail, and the link it offers, written out in full on the next line. */
export interface MailParagraph {
  text: string;
  link?: string;
}

/**
 * The two parts of a mail about the account itself (a password reset, a new address's confirmation): the product's
 * name, then the paragraphs. Links are written out in full, so they can be copied by hand from any mail program.
 */
export function composeAccountMail(paragraphs: readonly MailParagraph[]): Pick<Mail, 'text' | 'html'> {
  const text = [PRODUCT, ...paragraphs.flatMap((p) => ['', p.text, ...(p.link ? [p.link] : [])]), ''].join('\n');
  const html = [
    '<!doctype html>',
    '<html lang="en"><body style="font-family: Arial, sans-serif; font-size: 16px; line-height: 1.5; color: #1f2933">',
    `<p style="font-size: 18px; font-weight: bold; color: #2f6b2f">${PRODUCT}</p>`,
    ...paragraphs.flatMap((p) => [
      `<p>${escapeHtml(p.text)}</p>`,
      ...(p.link ? [`<p><a href="${escapeHtml(p.link)}">${escapeHtml(p.link)}</a></p>`] : []),
    ]),
    '</body></html>',
    '',
  ].join('\n');
  return { text, html };
}

import { PAGE_PATHS } from '../../shared/routes';
import { supportReplySubject } from '../../shared/support';
import { escapeHtml, type Mail } from '../mail';

const PRODUCT = 'RuralRoute';

export interface SupportReplyMailInput {
  name: string;
  email: string;
  subject: string;
  message: string;
  sentAt: Date;
  reply: string;
  /** The app's public address (APP_URL): the mail's one link is its contact page. */
  appUrl: string;
  /** The support address (SUPPORT_EMAIL): the mail's Reply-To, so answering it reaches support. */
  supportEmail: string;
}

/** 'November 28, 2026' (UTC: the server does not know where the sender is). */
const dayOf = (at: Date) => new Intl.DateTimeFormat('en-US', { dateStyle: 'long', timeZone: 'UTC' }).format(at);

const quote = (text: string) =>
  text
    .split(/\r?\n/)
    .map((line) => (line ? `> ${line}` : '>'))
    .join('\n');

/** Paragraphs as typed (blank lines between them), each line break kept. */
const htmlParagraphs = (text: string) =>
  text
    .split(/\r?\n\s*\r?\n/)
    .map((p) => `<p>${escapeHtml(p.trim()).replace(/\r?\n/g, '<br>')}</p>`)
    .join('\n');

/**
 * The support inbox's 'Reply' as an e-mail to the sender: the answer, then their message quoted; a plain-text and an
 * HTML part (everything the sender or the admin typed escaped). A reply to a message is not a newsletter: no
 * unsubscribe link.
 */
export function composeSupportReplyMail(input: SupportReplyMailInput): Omit<Mail, 'messageId'> {
  const link = `${input.appUrl}${PAGE_PATHS.contact}`;
  const wrote = `On ${dayOf(input.sentAt)}, you wrote:`;
  const more = 'If you have more to tell us, reply to this e-mail or write to us again through the contact page:';
  const text = [
    PRODUCT,
    '',
    `Hello ${input.name},`,
    '',
    input.reply,
    '',
    wrote,
    quote(`${input.subject}\n\n${input.message}`),
    '',
    more,
    link,
    '',
  ].join('\n');
  const html = [
    '<!doctype html>',
    '<html lang="en"><body style="font-family: Arial, sans-serif; font-size: 16px; line-height: 1.5; color: #1f2933">',
    `<p style="font-size: 18px; font-weight: bold; color: #2f6b2f">${PRODUCT}</p>`,
    `<p>Hello ${escapeHtml(input.name)},</p>`,
    htmlParagraphs(input.reply),
    `<p>${escapeHtml(wrote)}</p>`,
    '<blockquote style="margin: 0 0 0 8px; padding-left: 12px; border-left: 3px solid #cbd2d9; color: #52606d">',
    `<p><strong>${escapeHtml(input.subject)}</strong></p>`,
    htmlParagraphs(input.message),
    '</blockquote>',
    `<p>${escapeHtml(more)}</p>`,
    `<p><a href="${escapeHtml(link)}">${escapeHtml(link)}</a></p>`,
    '</body></html>',
    '',
  ].join('\n');
  return {
    to: input.email,
    subject: supportReplySubject(input.subject),
    text,
    html,
    link,
    replyTo: input.supportEmail,
  };
}

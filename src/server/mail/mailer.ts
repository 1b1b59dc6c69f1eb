import { mkdir, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import nodemailer from 'nodemailer';

/** One e-mail: a plain-text and an HTML part, one link into the app, and an unsubscribe link unless it is vital. */
export interface Mail {
  to: string;
  subject: string;
  text: string;
  html: string;
  /** The one link into the app (printed in the log when mails go to files). */
  link: string;
  /** One-click unsubscribe (List-Unsubscribe + List-Unsubscribe-Post); security mails have none. */
  unsubscribeUrl?: string;
  /** Where the recipient's reply goes (Reply-To), when not to the From address (a support answer: support). */
  replyTo?: string;
  /**
   * Stable across retries, so a mail system drops a repeat: the left part of the Message-ID (`<id@domain of
   * MAIL_FROM>`), or a whole `<...@...>` id.
   */
  messageId: string;
}

export interface MailerOptions {
  /** smtp://user:pass@host:587 (or smtps://); without it, each mail is written to `<dataDir>/mail/*.eml`. */
  smtpUrl?: string;
  /** The From header, e.g. `RuralRoute <no-reply@example.com>`. */
  from: string;
  dataDir: string;
  /** SMTP connections kept open and reused (the job worker's concurrency): a mail then costs no new handshake. */
  connections?: number;
  log?: (line: string) => void;
}

export interface Mailer {
  /** Sends one mail; rejects when the server refuses it (the job is then retried). */
  send(mail: Mail): Promise<void>;
  /** Where mails go, for the start-up log: 'smtp://host:port' or the .eml folder. */
  readonly target: string;
  close(): void;
}

/** The domain of the From address: the right side of every Message-ID. */
function fromDomain(from: string): string {
  return from.match(/@([^>\s]+)>?\s*$/)?.[1] ?? 'localhost';
}

export function messageIdOf(mail: Pick<Mail, 'messageId'>, from: string): string {
  const id = mail.messageId.trim();
  if (/^<[^<>@\s]+@[^<>@\s]+>$/.test(id)) return id;
  return `<${id.replace(/[<>@\s]/g, '')}@${fromDomain(from)}>`;
}

/** A file name for the mail: its Message-ID made safe, so a retried mail rewrites its file rather than adding one. */
const fileNameOf = (messageId: string) => `${messageId.replace(/[^A-Za-z0-9.-]+/g, '_').replace(/^_|_$/g, '')}.eml`;

export function createMailer(opts: MailerOptions): Mailer {
  const log = opts.log ?? ((line: string) => console.log(line));
  const message = (mail: Mail) => ({
    from: opts.from,
    to: mail.to,
    subject: mail.subject,
    text: mail.text,
    html: mail.html,
    messageId: messageIdOf(mail, opts.from),
    ...(mail.replyTo ? { replyTo: mail.replyTo } : {}),
    headers: mail.unsubscribeUrl
      ? {
          'List-Unsubscribe': `<${mail.unsubscribeUrl}>`,
          'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click',
        }
      : {},
  });

  if (opts.smtpUrl) {
    const url = new URL(opts.smtpUrl);
    const transport = nodemailer.createTransport({
      url: opts.smtpUrl,
      // A pool of open connections, each sending mail after mail (closed by close()); a refused mail fails its
      // own send only.
      pool: true,
      maxConnections: opts.connections ?? 4,
      // Bounded well inside the job lease (JOBS_LEASE_SECONDS): a stuck server fails the attempt, not the job.
      connectionTimeout: 30_000,
      greetingTimeout: 30_000,
      socketTimeout: 60_000,
    });
    return {
      target: `${url.protocol}//${url.hostname}:${url.port || (url.protocol === 'smtps:' ? 465 : 587)}`,
      async send(mail) {
        await transport.sendMail(message(mail));
      },
      close: () => transport.close(),
    };
  }

  const dir = resolve(opts.dataDir, 'mail');
  const transport = nodemailer.createTransport({ streamTransport: true, buffer: true, newline: 'unix' });
  return {
    target: dir,
    async send(mail) {
      const msg = message(mail);
      const info = await transport.sendMail(msg);
      const file = join(dir, fileNameOf(msg.messageId));
      // The folder is made when a write finds it missing: a mkdir before every mail was a third of its cost.
      await writeFile(file, info.message as Buffer).catch(async (err: NodeJS.ErrnoException) => {
        if (err.code !== 'ENOENT') throw err;
        await mkdir(dir, { recursive: true });
        await writeFile(file, info.message as Buffer);
      });
      log(`[mail] to ${mail.to}: "${mail.subject}" ${mail.link} (${file})`);
    },
    close: () => transport.close(),
  };
}

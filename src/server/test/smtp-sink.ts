import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';

/** One mail as the SMTP server received it. */
export interface ReceivedMail {
  /** RCPT TO addresses. */
  to: string[];
  raw: string;
  /** Header values by lower-case name (unfolded; the last one wins). */
  headers: Record<string, string>;
  messageId: string;
  subject: string;
  /** The decoded text/plain and text/html parts ('' when absent). */
  text: string;
  html: string;
}

export interface SinkOptions {
  /** Decides each mail's fate after its data arrived: an Error refuses it (the sender sees a 4xx/5xx). */
  accept?: (mail: ReceivedMail) => Error | undefined;
  /** Waits this long before answering each mail (a slow server). */
  delayMs?: number;
  /**
   * Keeps the 'Confirm your e-mail address' mail every new account is sent (issue 37) in `mails`. Off by default:
   * it is accepted and left out, so the tests of other mails count only theirs; its own tests turn it on.
   */
  keepEmailVerification?: boolean;
}

/** The sign-up's confirmation mail (its Message-ID is the job's, `rr-email-verify-<job id>`). */
const isEmailVerification = (mail: ReceivedMail) => mail.messageId.startsWith('<rr-email-verify-');

/**
 * A real SMTP server on 127.0.0.1 (smtp-server, no TLS, any credentials accepted) that keeps every mail it
 * accepted in `mails` and counts every attempt in `attempts`. `url` is what SMTP_URL should be.
 */
export async function startSmtpSink(opts: SinkOptions = {}) {
  const mails: ReceivedMail[] = [];
  let attempts = 0;
  const server = new SMTPServer({
    secure: false,
    disabledCommands: ['STARTTLS'],
    authOptional: true,
    logger: false,
    onAuth: (_auth, _session, callback) => callback(null, { user: 'test' }),
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (c: Buffer) => chunks.push(c));
      stream.on('end', () => {
        attempts += 1;
        const mail = parseMail(
          Buffer.concat(chunks).toString('utf8'),
          session.envelope.rcptTo.map((r) => r.address),
        );
        const finish = () => {
          const refusal = opts.accept?.(mail);
          if (refusal) return callback(Object.assign(refusal, { responseCode: 451 }));
          if (opts.keepEmailVerification || !isEmailVerification(mail)) mails.push(mail);
          callback();
        };
        if (opts.delayMs) setTimeout(finish, opts.delayMs);
        else finish();
      });
    },
  });
  // A client that dies mid-connection (the kill -9 of jobs-crash.db.test.ts, a pooled connection cut) resets its
  // socket: smtp-server reports that as an 'error' event, which would otherwise be an uncaught exception in the test.
  server.on('error', () => undefined);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.server.address() as AddressInfo;
  return {
    url: `smtp://test:secret@127.0.0.1:${port}`,
    mails,
    get attempts() {
      return attempts;
    },
    /** Accepted mails per Message-ID. */
    counts(): Map<string, number> {
      const out = new Map<string, number>();
      for (const m of mails) out.set(m.messageId, (out.get(m.messageId) ?? 0) + 1);
      return out;
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

export type SmtpSink = Awaited<ReturnType<typeof startSmtpSink>>;

function headersOf(head: string): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const line of head.replace(/\r?\n[ \t]+/g, ' ').split(/\r?\n/)) {
    const at = line.indexOf(':');
    if (at > 0) headers[line.slice(0, at).trim().toLowerCase()] = line.slice(at + 1).trim();
  }
  return headers;
}

const decodeQuotedPrintable = (body: string) =>
  Buffer.from(
    body.replace(/=\r?\n/g, '').replace(/=([0-9A-F]{2})/gi, (_, hex: string) => String.fromCharCode(parseInt(hex, 16))),
    'latin1',
  ).toString('utf8');

/** Enough MIME for assertions on what the mailer writes: the headers and the decoded text and HTML parts. */
export function parseMail(raw: string, to: string[] = []): ReceivedMail {
  const split = raw.search(/\r?\n\r?\n/);
  const headers = headersOf(raw.slice(0, split));
  const parts: Record<string, string> = {};
  const boundary = headers['content-type']?.match(/boundary="?([^";]+)"?/)?.[1];
  const bodies = boundary ? raw.split(`--${boundary}`).slice(1, -1) : [raw];
  for (const part of bodies) {
    const at = part.search(/\r?\n\r?\n/);
    const h = headersOf(part.slice(0, at).trim());
    let body = part
      .slice(at)
      .replace(/^\r?\n\r?\n/, '')
      .replace(/\r?\n$/, '');
    const encoding = h['content-transfer-encoding']?.toLowerCase();
    if (encoding === 'quoted-printable') body = decodeQuotedPrintable(body);
    else if (encoding === 'base64') body = Buffer.from(body, 'base64').toString('utf8');
    const type = h['content-type']?.split(';')[0]?.trim().toLowerCase();
    if (type) parts[type] = body;
  }
  return {
    to,
    raw,
    headers,
    messageId: headers['message-id'] ?? '',
    subject: headers['subject'] ?? '',
    text: parts['text/plain'] ?? '',
    html: parts['text/html'] ?? '',
  };
}

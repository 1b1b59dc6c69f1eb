import { z } from 'zod';
import { EVENT_HEARTBEAT_SECONDS, EVENT_RETENTION_HOURS } from '../shared/events';
import { MESSAGES_PER_MINUTE } from '../shared/messages';
import {
  DEFAULT_SUPPORT_EMAIL,
  DEFAULT_SUPPORT_PHONE,
  SUPPORT_EMAIL_PATTERN,
  SUPPORT_PHONE_PATTERN,
} from '../shared/site-config';

const int = (def: number) => z.coerce.number().int().positive().default(def);
const bool = (def: boolean) =>
  z
    .enum(['true', 'false', '1', '0', ''])
    .default(def ? 'true' : 'false')
    .transform((v) => v === 'true' || v === '1');

/** http(s) only, without a trailing slash: paths are appended to it as they are. '' is unset. */
const appUrl = z
  .string()
  .trim()
  .refine((v) => {
    if (!v) return true;
    try {
      const u = new URL(v);
      return (u.protocol === 'http:' || u.protocol === 'https:') && !u.search && !u.hash && !u.username;
    } catch {
      return false;
    }
  }, 'APP_URL must be an http:// or https:// address, e.g. https://ruralroute.example')
  .transform((v) => v.replace(/\/+$/, '') || undefined);

/** A setting that is unset when empty. */
const optionalText = z
  .string()
  .trim()
  .transform((v) => v || undefined)
  .optional();

/** The form of each Stripe key, checked when PAYMENTS_PROVIDER=stripe (a key pasted into the wrong variable). */
const STRIPE_KEYS = [
  ['STRIPE_SECRET_KEY', /^(sk|rk)_(live|test)_\w+$/, 'a secret key (sk_live_... or sk_test_...)'],
  ['STRIPE_PUBLISHABLE_KEY', /^pk_(live|test)_\w+$/, 'a publishable key (pk_live_... or pk_test_...)'],
  ['STRIPE_WEBHOOK_SECRET', /^whsec_\w+$/, "the webhook endpoint's signing secret (whsec_...)"],
] as const;

/** An http(s) origin without a path (a local stand-in of a provider's API), '' unset. */
const apiBase = (name: string, example: string) =>
  z
    .string()
    .trim()
    .refine((v) => {
      if (!v) return true;
      try {
        const u = new URL(v);
        return (u.protocol === 'http:' || u.protocol === 'https:') && (u.pathname === '/' || u.pathname === '');
      } catch {
        return false;
      }
    }, `${name} must be an http:// or https:// address without a path, e.g. ${example}`)
    .transform((v) => v || undefined)
    .optional();

/** The form of each Twilio setting, checked when SMS_PROVIDER=twilio (a value pasted into the wrong variable). */
const TWILIO_KEYS = [
  ['TWILIO_ACCOUNT_SID', /^AC[0-9a-fA-F]{32}$/, 'an Account SID (AC followed by 32 hexadecimal characters)'],
  ['TWILIO_AUTH_TOKEN', /^\S{16,}$/, 'the Auth Token of that account'],
  [
    'TWILIO_FROM',
    /^(\+[1-9]\d{6,14}|MG[0-9a-fA-F]{32})$/,
    'the sending number in E.164 form (e.g. +15005550006) or a Messaging Service SID (MG...)',
  ],
] as const;
/**
 * A key of the ID photos (docs/verification.md): 32 random bytes in base64 (`openssl rand -base64 32`). Decoded here,
 * so a key of the wrong length or alphabet stops the server at start, never at the first upload.
 */
const ID_KEY_HELP = 'must be 32 random bytes in base64, e.g. the output of `openssl rand -base64 32`';
function decodeIdKey(value: string): Buffer | null {
  const v = value.trim();
  if (!/^[A-Za-z0-9+/_-]+={0,2}$/.test(v)) return null;
  const bytes = Buffer.from(v.replace(/-/g, '+').replace(/_/g, '/'), 'base64');
  return bytes.length === 32 ? bytes : null;
}
const idDocumentsKey = z
  .string()
  .trim()
  .transform((v, ctx) => {
    if (!v) return undefined;
    const key = decodeIdKey(v);
    if (!key) ctx.addIssue({ code: 'custom', message: `ID_DOCUMENTS_KEY ${ID_KEY_HELP}` });
    return key ?? undefined;
  })
  .optional();
const idDocumentsOldKeys = z
  .string()
  .default('')
  .transform((v, ctx) => {
    const keys: Buffer[] = [];
    for (const part of v
      .split(',')
      .map((s) => s.trim())
      .filter(Boolean)) {
      const key = decodeIdKey(part);
      if (key) keys.push(key);
      else ctx.addIssue({ code: 'custom', message: `each key of ID_DOCUMENTS_OLD_KEYS ${ID_KEY_HELP}` });
    }
    return keys;
  });

/** Every setting the server reads, checked at start. A bad value stops the server with a clear message. */
const settingsSchema = z.object({
  NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  HOST: z.string().min(1).default('0.0.0.0'),
  DATA_DIR: z.string().min(1).default('./data'),
  DATABASE_URL: z
    .string()
    .regex(/^postgres(ql)?:\/\//, 'DATABASE_URL must start with postgres:// or postgresql://')
    .optional()
    .or(z.literal('').transform(() => undefined)),
  /**
   * Where the dedicated LISTEN connection goes (session revocation across instances); defaults to DATABASE_URL. Set it
   * to PostgreSQL itself when DATABASE_URL is a transaction-mode pooler (PgBouncer), which cannot hold a LISTEN.
   */
  DATABASE_LISTEN_URL: z
    .string()
    .regex(/^postgres(ql)?:\/\//, 'DATABASE_LISTEN_URL must start with postgres:// or postgresql://')
    .optional()
    .or(z.literal('').transform(() => undefined)),
  /** Apply pending migrations at start (under an advisory lock). `false` when a deploy step runs `npm run db:migrate`. */
  MIGRATE_ON_START: bool(true),
  /** Named prepared statements on PostgreSQL. `false` behind PgBouncer in transaction mode (docs/deploy.md). */
  DATABASE_PREPARE: bool(true),
  /** Extra origins allowed to make unsafe requests with cookies, comma-separated (the app's own origin always is). */
  ALLOWED_ORIGINS: z
    .string()
    .default('')
    .transform((v) =>
      v
        .split(',')
        .map((s) => s.trim())
        .filter(Boolean),
    ),
  /** How many reverse proxies in front of the app append to X-Forwarded-For. 0 = trust none. */
  TRUST_PROXY_HOPS: z.coerce.number().int().min(0).max(10).default(0),
  SESSION_IDLE_MINUTES: int(60 * 24 * 7),
  SESSION_ABSOLUTE_DAYS: int(30),
  /** A session's last-seen time (and cookie) is refreshed at most this often. */
  SESSION_TOUCH_SECONDS: int(300),
  /** A resolved session is reused from memory this long (0 = look it up on every call); see decision 008. */
  SESSION_CACHE_SECONDS: z.coerce.number().int().min(0).max(60).default(5),
  /** Failed sign-ins per account from one client address, per window (counted in PostgreSQL: decision 009). */
  AUTH_FAILED_PER_ACCOUNT_MAX: int(5),
  AUTH_FAILED_PER_ACCOUNT_WINDOW_MINUTES: int(15),
  /** Failed sign-ins per account over all addresses in the same window: stops guessing spread over many hosts. */
  AUTH_FAILED_PER_ACCOUNT_ALL_ADDRESSES_MAX: int(50),
  /** Sign-in and sign-up attempts per client address, successful or not. */
  AUTH_PER_IP_MAX: int(30),
  AUTH_PER_IP_WINDOW_MINUTES: int(5),
  /** Marketplace writes (post ride, create request, accept, delete) per user per window, all together. */
  WRITE_LIMIT_PER_USER_MAX: int(60),
  WRITE_LIMIT_PER_USER_WINDOW_SECONDS: int(60),
  /** Messages sent per user per window (its own allowance, besides the write throttle). */
  MESSAGE_LIMIT_PER_USER_MAX: int(MESSAGES_PER_MINUTE),
  MESSAGE_LIMIT_PER_USER_WINDOW_SECONDS: int(60),
  /** The live event stream (GET /api/events): a comment this often keeps proxies and clients sure it is alive. */
  EVENT_HEARTBEAT_SECONDS: int(EVENT_HEARTBEAT_SECONDS),
  /** How long each user's events are kept for `Last-Event-ID` resumes (older rows are swept hourly). */
  EVENT_RETENTION_HOURS: int(EVENT_RETENTION_HOURS),
  /**
   * How often each instance publishes the reviews whose 14-day period has ended (the other person never reviewed).
   * Every instance may run it: a review is published, and counted in the ratings, exactly once.
   */
  REVIEW_SWEEP_SECONDS: int(60),
  /** How often each instance runs the plans sweep (renewals, ends, graces; issue 38). */
  PLAN_SWEEP_SECONDS: int(60),
  /** The mail server, e.g. smtp://user:pass@host:587 (smtps:// for TLS from the start). Unset: mails are written as
   * .eml files under DATA_DIR/mail and each one's subject and link is printed in the log. */
  SMTP_URL: z
    .string()
    .regex(/^smtps?:\/\//, 'SMTP_URL must start with smtp:// or smtps://')
    .optional()
    .or(z.literal('').transform(() => undefined)),
  /**
   * The app's public address, as people open it (e.g. https://ruralroute.example): every link in an e-mail starts
   * with it. Defaults to http://localhost:PORT.
   */
  APP_URL: appUrl.optional(),
  /** The sender of every mail; its domain is the right side of each Message-ID. */
  MAIL_FROM: z.string().trim().min(3).default('RuralRoute <no-reply@ruralroute.localhost>'),
  /** How often each instance's job worker looks for due jobs (an enqueue also wakes it at once, via NOTIFY). */
  JOBS_POLL_MS: int(1000),
  /** Jobs (e-mails) one instance runs at once. */
  JOBS_CONCURRENCY: int(4),
  /** How long a claimed job belongs to its worker: after it, a job whose process died is claimed again. */
  JOBS_LEASE_SECONDS: int(300),
  /** argon2id cost: memory in KiB, iterations, parallelism (OWASP's baseline by default). */
  ARGON2_MEMORY_KIB: int(19456),
  ARGON2_TIME_COST: int(2),
  ARGON2_PARALLELISM: int(1),
  /** Serve the built web client (`npm start` builds it when stale). `npm run dev` turns it off: Vite serves it there. */
  SERVE_CLIENT: bool(true),
  LOG_REQUESTS: bool(false),
  /**
   * Who moves the money (docs/payments.md): `test`, the embedded provider (test cards, no real money; the default),
   * or `stripe`, which needs the three STRIPE_ keys below.
   */
  PAYMENTS_PROVIDER: z.enum(['test', 'stripe']).default('test'),
  /** The platform account's secret key (sk_live_..., sk_test_..., or a restricted rk_ key): the server's calls. */
  STRIPE_SECRET_KEY: optionalText,
  /** Its publishable key (pk_live_... or pk_test_...): Stripe.js in the pay dialog makes the card's payment method. */
  STRIPE_PUBLISHABLE_KEY: optionalText,
  /** The signing secret of the webhook endpoint /api/payments/webhooks/stripe (whsec_...). */
  STRIPE_WEBHOOK_SECRET: optionalText,
  /**
   * Stripe Billing's recurring prices of the plans (price_...: Plus $4.99 a month, Community $49.99 a year), made
   * once in Stripe's dashboard (docs/plans.md). Without both, plans cannot be bought under PAYMENTS_PROVIDER=stripe.
   */
  STRIPE_PRICE_PLUS: optionalText,
  STRIPE_PRICE_COMMUNITY: optionalText,
  /**
   * Where the Stripe SDK sends its calls instead of https://api.stripe.com: only for tests and local stand-ins of
   * Stripe's API (the SDK's host, port and protocol settings). Never set in production.
   */
  STRIPE_API_BASE: z
    .string()
    .trim()
    .refine((v) => {
      if (!v) return true;
      try {
        const u = new URL(v);
        return (u.protocol === 'http:' || u.protocol === 'https:') && (u.pathname === '/' || u.pathname === '');
      } catch {
        return false;
      }
    }, 'STRIPE_API_BASE must be an http:// or https:// address without a path, e.g. http://127.0.0.1:12111')
    .transform((v) => v || undefined)
    .optional(),
  /**
   * Who sends the SMS (phone verification codes, docs/verification.md): `file` (the default) writes each one to
   * DATA_DIR/sms/<id>.txt and logs it, as mails without SMTP_URL; `twilio` sends it through Twilio, with the three
   * TWILIO_ settings below.
   */
  SMS_PROVIDER: z.enum(['file', 'twilio']).default('file'),
  /** The Twilio account (AC...), its Auth Token, and the sender: a Twilio number in E.164 form or a Messaging Service SID (MG...). */
  TWILIO_ACCOUNT_SID: optionalText,
  TWILIO_AUTH_TOKEN: optionalText,
  TWILIO_FROM: optionalText,
  /**
   * Where the Twilio SDK sends its calls instead of https://api.twilio.com: only for tests and local stand-ins of
   * Twilio's API (through the SDK's own httpClient setting). Never set in production.
   */
  TWILIO_API_BASE: apiBase('TWILIO_API_BASE', 'http://127.0.0.1:12112'),
  /**
   * The key the ID photos are encrypted with (AES-256-GCM): base64 of 32 bytes. Unset: a key made once and kept in the
   * database (app_secrets). Keep it safe and backed up: photos encrypted with a lost key cannot be read.
   */
  ID_DOCUMENTS_KEY: idDocumentsKey,
  /**
   * Earlier keys, comma-separated, still used to read photos sent before a key change (rotation); new photos always
   * use ID_DOCUMENTS_KEY. Photos live only until their check is decided, so an old key can go once those are.
   */
  ID_DOCUMENTS_OLD_KEYS: idDocumentsOldKeys,
  /** Shown on /contact and in the policies. Validated strictly: the server writes them into the pages' HTML. */
  SUPPORT_EMAIL: z
    .string()
    .trim()
    .regex(SUPPORT_EMAIL_PATTERN, 'SUPPORT_EMAIL must be a plain e-mail address (letters, digits, . _ + -)')
    .default(DEFAULT_SUPPORT_EMAIL),
  SUPPORT_PHONE: z
    .string()
    .trim()
    .regex(SUPPORT_PHONE_PATTERN, 'SUPPORT_PHONE may hold only digits, spaces, +, -, . and parentheses')
    .default(DEFAULT_SUPPORT_PHONE),
  /** Contact messages accepted per client address per window (spam guard). */
  CONTACT_PER_IP_MAX: int(5),
  CONTACT_PER_IP_WINDOW_MINUTES: int(60),
  /**
   * PEM files of a certificate (with its chain) and its private key: with both, the server speaks HTTPS itself,
   * HTTP/2 and HTTP/1.1 on the same port, so a phone fetches a page's many small scripts at once instead of six at a
   * time (decision 027). Without them it speaks plain HTTP/1.1, as behind a proxy that ends TLS (docs/deploy.md).
   */
  TLS_CERT: z.string().trim().optional(),
  TLS_KEY: z.string().trim().optional(),
});

export const envSchema = settingsSchema
  .refine((env) => !env.TLS_CERT === !env.TLS_KEY, {
    message: 'TLS_CERT and TLS_KEY go together: set both (HTTPS with HTTP/2) or neither (plain HTTP)',
    path: ['TLS_CERT'],
  })
  .superRefine((env, ctx) => {
    if (env.PAYMENTS_PROVIDER !== 'stripe') return;
    for (const [name, pattern, what] of STRIPE_KEYS) {
      const value = env[name];
      if (!value)
        ctx.addIssue({ code: 'custom', path: [name], message: `${name} is required when PAYMENTS_PROVIDER=stripe` });
      else if (!pattern.test(value)) ctx.addIssue({ code: 'custom', path: [name], message: `${name} must be ${what}` });
    }
    for (const name of ['STRIPE_PRICE_PLUS', 'STRIPE_PRICE_COMMUNITY'] as const) {
      const value = env[name];
      if (value && !/^price_\w+$/.test(value))
        ctx.addIssue({ code: 'custom', path: [name], message: `${name} must be a Stripe price id (price_...)` });
    }
  })
  .superRefine((env, ctx) => {
    if (env.SMS_PROVIDER !== 'twilio') return;
    for (const [name, pattern, what] of TWILIO_KEYS) {
      const value = env[name];
      if (!value)
        ctx.addIssue({ code: 'custom', path: [name], message: `${name} is required when SMS_PROVIDER=twilio` });
      else if (!pattern.test(value)) ctx.addIssue({ code: 'custom', path: [name], message: `${name} must be ${what}` });
    }
  })
  .transform((env) => ({
    ...env,
    APP_URL: env.APP_URL ?? `${env.TLS_CERT ? 'https' : 'http'}://localhost:${env.PORT}`,
    TLS_CERT: env.TLS_CERT || undefined,
    TLS_KEY: env.TLS_KEY || undefined,
  }));

export type Env = z.output<typeof envSchema>;

/** What the server warns about at start: settings that are allowed but likely a mistake where they are. */
export function startupWarnings(env: Env): string[] {
  const warnings: string[] = [];
  if (env.NODE_ENV === 'production' && env.PAYMENTS_PROVIDER === 'test')
    warnings.push(
      'PAYMENTS_PROVIDER=test in production: payments use the embedded test provider and no real money moves ' +
        '(set PAYMENTS_PROVIDER=stripe and the STRIPE_ keys to take payments: docs/payments.md)',
    );
  if (env.PAYMENTS_PROVIDER === 'stripe' && !(env.STRIPE_PRICE_PLUS && env.STRIPE_PRICE_COMMUNITY))
    warnings.push(
      'PAYMENTS_PROVIDER=stripe without STRIPE_PRICE_PLUS and STRIPE_PRICE_COMMUNITY: plans cannot be bought ' +
        '(make the two prices in Stripe: docs/plans.md)',
    );
  if (env.STRIPE_API_BASE && env.NODE_ENV === 'production')
    warnings.push(`STRIPE_API_BASE=${env.STRIPE_API_BASE} in production: Stripe calls go to that stand-in, not Stripe`);
  if (env.TWILIO_API_BASE && env.NODE_ENV === 'production')
    warnings.push(`TWILIO_API_BASE=${env.TWILIO_API_BASE} in production: SMS go to that stand-in, not Twilio`);
  return warnings;
}

export function readEnv(source: NodeJS.ProcessEnv = process.env): Env {
  const parsed = envSchema.safeParse(source);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `  ${i.path.join('.') || '(env)'}: ${i.message}`);
    throw new Error(`Invalid environment configuration:\n${lines.join('\n')}`);
  }
  return parsed.data;
}

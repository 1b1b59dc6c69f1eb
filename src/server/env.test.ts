import { describe, expect, it } from 'vitest';
import { readEnv, startupWarnings } from './env';

describe('readEnv', () => {
  it('applies documented defaults', () => {
    const env = readEnv({});
    expect(env.PORT).toBe(3000);
    expect(env.DATA_DIR).toBe('./data');
    expect(env.DATABASE_URL).toBeUndefined();
    expect(env.SESSION_IDLE_MINUTES).toBe(10080);
    expect(env.SESSION_ABSOLUTE_DAYS).toBe(30);
    expect(env.AUTH_FAILED_PER_ACCOUNT_MAX).toBe(5);
    expect(env.AUTH_FAILED_PER_ACCOUNT_ALL_ADDRESSES_MAX).toBe(50);
    expect(env.AUTH_PER_IP_MAX).toBe(30);
    expect(env.WRITE_LIMIT_PER_USER_MAX).toBe(60);
    expect(env.WRITE_LIMIT_PER_USER_WINDOW_SECONDS).toBe(60);
    expect(env.TRUST_PROXY_HOPS).toBe(0);
    expect(env.MESSAGE_LIMIT_PER_USER_MAX).toBe(30);
    expect(env.MESSAGE_LIMIT_PER_USER_WINDOW_SECONDS).toBe(60);
    expect(env.EVENT_HEARTBEAT_SECONDS).toBe(25);
    expect(env.EVENT_RETENTION_HOURS).toBe(72);
    expect(env.REVIEW_SWEEP_SECONDS).toBe(60);
    expect(env.SMTP_URL).toBeUndefined();
    expect(env.MAIL_FROM).toBe('RuralRoute <no-reply@ruralroute.localhost>');
    expect(env.JOBS_POLL_MS).toBe(1000);
    expect(env.JOBS_CONCURRENCY).toBe(4);
    expect(env.JOBS_LEASE_SECONDS).toBe(300);
    expect(env.APP_URL).toBe('http://localhost:3000');
  });

  it('APP_URL: follows PORT by default, loses its trailing slash, and must be an http(s) address', () => {
    expect(readEnv({ PORT: '8080' }).APP_URL).toBe('http://localhost:8080');
    expect(readEnv({ APP_URL: '' }).APP_URL).toBe('http://localhost:3000');
    expect(readEnv({ APP_URL: 'https://ruralroute.example/' }).APP_URL).toBe('https://ruralroute.example');
    expect(readEnv({ APP_URL: ' https://example.org/rr// ' }).APP_URL).toBe('https://example.org/rr');
    for (const bad of [
      'ruralroute.example',
      'ftp://ruralroute.example',
      'javascript:alert(1)',
      'https://x.example/?a=1',
    ])
      expect(() => readEnv({ APP_URL: bad }), bad).toThrow(/APP_URL must be an http:\/\/ or https:\/\/ address/);
  });

  it('stops with a clear message naming each bad value', () => {
    expect(() => readEnv({ PORT: 'eighty' })).toThrow(/PORT/);
    expect(() => readEnv({ DATABASE_URL: 'mysql://x' })).toThrow(/DATABASE_URL must start with postgres:\/\//);
    expect(() => readEnv({ AUTH_PER_IP_MAX: '-1' })).toThrow(/AUTH_PER_IP_MAX/);
    expect(() => readEnv({ WRITE_LIMIT_PER_USER_MAX: '0' })).toThrow(/WRITE_LIMIT_PER_USER_MAX/);
    expect(() => readEnv({ MESSAGE_LIMIT_PER_USER_MAX: '0' })).toThrow(/MESSAGE_LIMIT_PER_USER_MAX/);
    expect(() => readEnv({ EVENT_HEARTBEAT_SECONDS: 'soon' })).toThrow(/EVENT_HEARTBEAT_SECONDS/);
    expect(() => readEnv({ REVIEW_SWEEP_SECONDS: '0' })).toThrow(/REVIEW_SWEEP_SECONDS/);
    expect(() => readEnv({ SMTP_URL: 'mail.example.com:587' })).toThrow(/SMTP_URL must start with smtp:\/\//);
    expect(() => readEnv({ JOBS_POLL_MS: '0' })).toThrow(/JOBS_POLL_MS/);
  });

  it('parses lists and an empty DATABASE_URL', () => {
    const env = readEnv({ ALLOWED_ORIGINS: 'https://a.example, https://b.example', DATABASE_URL: '' });
    expect(env.ALLOWED_ORIGINS).toEqual(['https://a.example', 'https://b.example']);
    expect(env.DATABASE_URL).toBeUndefined();
    expect(readEnv({ SMTP_URL: '' }).SMTP_URL).toBeUndefined();
    expect(readEnv({ SMTP_URL: 'smtp://user:pass@mail.example.com:587' }).SMTP_URL).toBe(
      'smtp://user:pass@mail.example.com:587',
    );
  });

  describe('payments provider', () => {
    const stripe = {
      PAYMENTS_PROVIDER: 'stripe',
      STRIPE_SECRET_KEY: 'sk_test_51Abc',
      STRIPE_PUBLISHABLE_KEY: 'pk_test_51Abc',
      STRIPE_WEBHOOK_SECRET: 'whsec_abc123',
    };

    it('is the embedded test provider by default, needing no Stripe key', () => {
      const env = readEnv({});
      expect(env.PAYMENTS_PROVIDER).toBe('test');
      expect(env.STRIPE_SECRET_KEY).toBeUndefined();
      expect(env.STRIPE_API_BASE).toBeUndefined();
    });

    it('stripe: takes the three keys', () => {
      expect(readEnv(stripe)).toMatchObject(stripe);
      expect(readEnv({ ...stripe, STRIPE_SECRET_KEY: 'rk_live_51Abc' }).STRIPE_SECRET_KEY).toBe('rk_live_51Abc');
    });

    it('stripe: names each key that is missing or empty, and each one in the wrong variable', () => {
      expect(() => readEnv({ PAYMENTS_PROVIDER: 'stripe' })).toThrow(
        /STRIPE_SECRET_KEY is required when PAYMENTS_PROVIDER=stripe[\s\S]*STRIPE_PUBLISHABLE_KEY is required when PAYMENTS_PROVIDER=stripe[\s\S]*STRIPE_WEBHOOK_SECRET is required when PAYMENTS_PROVIDER=stripe/,
      );
      expect(() => readEnv({ ...stripe, STRIPE_WEBHOOK_SECRET: ' ' })).toThrow(
        /STRIPE_WEBHOOK_SECRET: STRIPE_WEBHOOK_SECRET is required when PAYMENTS_PROVIDER=stripe/,
      );
      expect(() => readEnv({ ...stripe, STRIPE_SECRET_KEY: 'pk_test_51Abc' })).toThrow(
        /STRIPE_SECRET_KEY must be a secret key \(sk_live_\.\.\. or sk_test_\.\.\.\)/,
      );
      expect(() => readEnv({ ...stripe, STRIPE_PUBLISHABLE_KEY: 'sk_test_51Abc' })).toThrow(
        /STRIPE_PUBLISHABLE_KEY must be a publishable key/,
      );
      expect(() => readEnv({ PAYMENTS_PROVIDER: 'paypal' })).toThrow(/PAYMENTS_PROVIDER/);
    });

    it('STRIPE_API_BASE: an http(s) address without a path', () => {
      expect(readEnv({ ...stripe, STRIPE_API_BASE: 'http://127.0.0.1:12111' }).STRIPE_API_BASE).toBe(
        'http://127.0.0.1:12111',
      );
      expect(readEnv({ STRIPE_API_BASE: '' }).STRIPE_API_BASE).toBeUndefined();
      for (const bad of ['127.0.0.1:12111', 'ftp://stripe.local', 'http://127.0.0.1:12111/v1'])
        expect(() => readEnv({ STRIPE_API_BASE: bad }), bad).toThrow(
          /STRIPE_API_BASE must be an http:\/\/ or https:\/\//,
        );
    });

    it('warns at start when production runs on the test provider (no real money moves), and only then', () => {
      expect(startupWarnings(readEnv({ NODE_ENV: 'production' }))).toEqual([
        expect.stringMatching(/^PAYMENTS_PROVIDER=test in production: .*no real money moves/),
      ]);
      expect(startupWarnings(readEnv({ NODE_ENV: 'development' }))).toEqual([]);
      const priced = { ...stripe, STRIPE_PRICE_PLUS: 'price_plus1', STRIPE_PRICE_COMMUNITY: 'price_community1' };
      expect(startupWarnings(readEnv({ ...priced, NODE_ENV: 'production' }))).toEqual([]);
      expect(
        startupWarnings(readEnv({ ...priced, NODE_ENV: 'production', STRIPE_API_BASE: 'http://127.0.0.1:1' })),
      ).toEqual([expect.stringMatching(/^STRIPE_API_BASE=http:\/\/127\.0\.0\.1:1 in production/)]);
    });

    it("Stripe without the plans' two prices: a warning that plans cannot be bought; a price that is not one refused", () => {
      expect(startupWarnings(readEnv({ ...stripe, NODE_ENV: 'production' }))).toEqual([
        expect.stringMatching(/^PAYMENTS_PROVIDER=stripe without STRIPE_PRICE_PLUS and STRIPE_PRICE_COMMUNITY/),
      ]);
      expect(() => readEnv({ ...stripe, STRIPE_PRICE_PLUS: 'plus' })).toThrow(
        /STRIPE_PRICE_PLUS must be a Stripe price id/,
      );
    });
  });
});

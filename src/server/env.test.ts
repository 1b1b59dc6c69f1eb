import { describe, expect, it } from 'vitest';
import { readEnv } from './env';

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
});

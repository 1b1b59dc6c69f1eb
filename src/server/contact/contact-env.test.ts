import { describe, expect, it } from 'vitest';
import { DEFAULT_SUPPORT_EMAIL, DEFAULT_SUPPORT_PHONE, phoneHref } from '../../shared/site-config';
import { readEnv } from '../env';

describe('contact settings', () => {
  it('default to the documented support address, phone and allowance', () => {
    const env = readEnv({});
    expect(env.SUPPORT_EMAIL).toBe(DEFAULT_SUPPORT_EMAIL);
    expect(env.SUPPORT_PHONE).toBe(DEFAULT_SUPPORT_PHONE);
    expect(env.CONTACT_PER_IP_MAX).toBe(5);
    expect(env.CONTACT_PER_IP_WINDOW_MINUTES).toBe(60);
  });

  it('accept configured values and refuse ones unsafe to write into a page', () => {
    const env = readEnv({ SUPPORT_EMAIL: ' help@valley.example ', SUPPORT_PHONE: '+1 (555) 010-2000' });
    expect(env.SUPPORT_EMAIL).toBe('help@valley.example');
    expect(env.SUPPORT_PHONE).toBe('+1 (555) 010-2000');
    expect(() => readEnv({ SUPPORT_EMAIL: '<b>@x' })).toThrow(/SUPPORT_EMAIL/);
    expect(() => readEnv({ SUPPORT_EMAIL: "o'brien@example.com" })).toThrow(/SUPPORT_EMAIL/);
    expect(() => readEnv({ SUPPORT_PHONE: '555<script>' })).toThrow(/SUPPORT_PHONE/);
    expect(() => readEnv({ CONTACT_PER_IP_MAX: '0' })).toThrow(/CONTACT_PER_IP_MAX/);
  });

  it('turn a phone number into a tel: link', () => {
    expect(phoneHref('+1 (555) 010-2000')).toBe('tel:+15550102000');
    expect(phoneHref('1-800-555-0199')).toBe('tel:18005550199');
  });
});

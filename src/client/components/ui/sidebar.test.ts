import { describe, expect, it } from 'vitest';
import { readSidebarCookie } from './sidebar';

describe('readSidebarCookie', () => {
  it('defaults to expanded and reads the remembered state', () => {
    expect(readSidebarCookie('')).toBe(true);
    expect(readSidebarCookie('sidebar_state=false')).toBe(false);
    expect(readSidebarCookie('a=1; sidebar_state=true; b=2')).toBe(true);
    expect(readSidebarCookie('xsidebar_state=false')).toBe(true);
  });
});

import { beforeEach, describe, expect, it, vi } from 'vitest';

type Signal = typeof import('./toaster-signal');
let signal: Signal;

beforeEach(async () => {
  vi.resetModules();
  signal = await import('./toaster-signal');
});

describe('toaster on demand', () => {
  it('shows toasts at once while no host mounts the toaster lazily (component tests render their own)', () => {
    const show = vi.fn();
    signal.whenToasterReady(show);
    expect(show).toHaveBeenCalledTimes(1);
  });

  it('asks the host to mount the toaster and holds toasts, in order, until it listens', () => {
    signal.mountToasterOnDemand();
    const listener = vi.fn();
    signal.subscribeToToasterRequest(listener);
    const shown: string[] = [];
    signal.whenToasterReady(() => shown.push('first'));
    signal.whenToasterReady(() => shown.push('second'));
    expect(signal.toasterRequested()).toBe(true);
    expect(listener).toHaveBeenCalledTimes(1);
    expect(shown).toEqual([]);
    signal.markToasterReady();
    expect(shown).toEqual(['first', 'second']);
    signal.whenToasterReady(() => shown.push('third'));
    expect(shown).toEqual(['first', 'second', 'third']);
  });

  it('is not requested until something needs it', () => {
    signal.mountToasterOnDemand();
    expect(signal.toasterRequested()).toBe(false);
    signal.requestToaster();
    expect(signal.toasterRequested()).toBe(true);
  });
});

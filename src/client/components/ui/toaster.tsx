import { useEffect } from 'react';
import type * as React from 'react';
import { Toaster as Sonner } from 'sonner';
import { markToasterReady } from '@/lib/toaster-signal';

/**
 * sonner's rich colours put mid-tone text on pale backgrounds (about 4:1); these darker texts keep every toast
 * above WCAG AA's 4.5:1 (axe checks pages while a toast is showing).
 */
const AA_COLOURS = {
  '--success-text': '#14532d',
  '--error-text': '#991b1b',
  '--info-text': '#1e3a8a',
  '--warning-text': '#78350f',
} as React.CSSProperties;

/** Spec section 9: up to 3 toasts visible, 4 seconds each. */
export function Toaster() {
  // Sonner subscribes in its own effect, which runs before this one: toasts queued until now are not lost.
  useEffect(() => markToasterReady(), []);
  return <Sonner position="top-right" visibleToasts={3} duration={4000} richColors closeButton style={AA_COLOURS} />;
}

import { useEffect } from 'react';
import { Toaster as Sonner } from 'sonner';
import { markToasterReady } from '@/lib/toaster-signal';

/** Spec section 9: up to 3 toasts visible, 4 seconds each. */
export function Toaster() {
  // Sonner subscribes in its own effect, which runs before this one: toasts queued until now are not lost.
  useEffect(() => markToasterReady(), []);
  return <Sonner position="top-right" visibleToasts={3} duration={4000} richColors closeButton />;
}

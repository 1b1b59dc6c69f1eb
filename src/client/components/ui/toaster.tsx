import { Toaster as Sonner } from 'sonner';

/** Spec section 9: up to 3 toasts visible, 4 seconds each. */
export function Toaster() {
  return <Sonner position="top-right" visibleToasts={3} duration={4000} richColors closeButton />;
}

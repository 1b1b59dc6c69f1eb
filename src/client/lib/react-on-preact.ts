/**
 * What `react` and `react-dom` resolve to in the browser build and the prerender (vite.config.ts, decision 025):
 * Preact's compatibility layer, plus the React behaviours the app relies on that it lacks.
 *
 * React 19 passes `ref` to a function component as an ordinary prop, so the app's components (shadcn/ui style,
 * no forwardRef) hand it on to their element: react-hook-form's `register`, Radix's `asChild` and focus management
 * all depend on that. Preact keeps `ref` off a component's props unless it is wrapped in forwardRef. This hook moves
 * it into the props of every function component, as React 19 does; class components keep theirs. And `autoFocus`
 * focuses on mount, as in React.
 */
import { options, type VNode } from 'preact';

const autoFocused = new WeakSet<Element>();

/** A ref that focuses its element the first time it is attached, then does what `ref` did. */
function focusOnMount(ref: unknown) {
  return (element: HTMLElement | null) => {
    if (element && !autoFocused.has(element)) {
      autoFocused.add(element);
      element.focus();
    }
    if (typeof ref === 'function') (ref as (e: HTMLElement | null) => void)(element);
    else if (ref && typeof ref === 'object') (ref as { current: HTMLElement | null }).current = element;
  };
}

const previousVnodeHook = options.vnode;
options.vnode = (vnode: VNode & { ref?: unknown }) => {
  const type = vnode.type as unknown;
  const props = vnode.props as { ref?: unknown; autoFocus?: boolean };
  if (
    typeof type === 'function' &&
    vnode.ref != null &&
    !(type.prototype as { render?: unknown } | undefined)?.render
  ) {
    props.ref = vnode.ref;
    vnode.ref = undefined;
  } else if (typeof type === 'string' && props.autoFocus) {
    // React focuses an element with autoFocus when it is mounted; Preact only writes the attribute, which the
    // browser honours on page load alone (a dialog's first field, the code step of sign-in).
    delete props.autoFocus;
    vnode.ref = focusOnMount(vnode.ref);
  }
  previousVnodeHook?.(vnode);
};

// @ts-expect-error -- the module has named exports; its types declare one `export =` namespace.
export * from 'preact/compat';
export { default } from 'preact/compat';

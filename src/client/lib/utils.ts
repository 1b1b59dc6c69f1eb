import { clsx, type ClassValue } from 'clsx';

/**
 * tailwind-merge, once src/client/lib/class-merger.ts has loaded. It is not on the dashboard's first screen (4.5 KB
 * compressed of the slow line's first visit, issue 34): that screen's class lists are conflict-free, so they come out
 * the same unmerged (src/client/app/first-screen-classes.test.tsx). Every other page waits for it before it renders
 * (lazyPage in src/client/app/lazy-page.tsx), as does the toaster.
 */
let merge: ((classes: string) => string) | undefined;

/** Called by class-merger.ts when it loads (and by a test that renders without it). */
export function setClassMerger(merger: ((classes: string) => string) | undefined) {
  merge = merger;
}

/** The class lists joined (clsx), a later class winning over an earlier one it conflicts with (tailwind-merge). */
export function cn(...inputs: ClassValue[]) {
  const classes = clsx(inputs);
  return merge ? merge(classes) : classes;
}

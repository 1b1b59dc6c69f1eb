import { createTailwindMerge } from 'tailwind-merge';
import { twMergeConfig } from './tw-merge-config';
import { setClassMerger } from './utils';

/**
 * tailwind-merge with only the class groups the app's classes belong to (scripts/tw-merge-config.mjs): 2.7 KB less
 * (brotli) than its default configuration, and a class map about a quarter the size to build on the first call (3.6
 * ms instead of 11 to 14 in Node). utils.test.ts proves it equal to the default. Loading this module makes `cn()`
 * merge (src/client/lib/utils.ts); pages load it before they render (src/client/app/lazy-page.tsx).
 */
export const twMerge = createTailwindMerge(twMergeConfig);
setClassMerger(twMerge);
// The first call builds the class map (about 25 ms in a slow phone's cold code): in a task of its own, not inside
// the render that first needs it.
if (typeof window !== 'undefined') setTimeout(() => twMerge(''), 0);

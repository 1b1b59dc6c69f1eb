import { cva } from 'class-variance-authority';

/**
 * The button's classes by variant and size. Its own module, without tailwind-merge: the route error page is in the
 * app's entry and styles a plain <button> with it, so tailwind-merge (7 KiB) stays out of every page's first script.
 * No two classes here set the same property, whatever the variant and size: a button on a screen that renders before
 * tailwind-merge has loaded (src/client/app/first-screen-classes.test.tsx) gets these classes as they are.
 */
export const buttonVariants = cva(
  'inline-flex items-center justify-center gap-2 whitespace-nowrap rounded-md text-sm font-medium transition-colors focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring focus-visible:ring-offset-2 disabled:pointer-events-none disabled:opacity-60 [&_svg]:shrink-0',
  {
    variants: {
      variant: {
        default: 'bg-primary text-primary-foreground hover:bg-primary/90',
        destructive: 'bg-destructive text-destructive-foreground hover:bg-destructive/90',
        outline: 'border border-input bg-background hover:bg-accent hover:text-accent-foreground',
        secondary: 'bg-secondary text-secondary-foreground hover:bg-secondary/80',
        ghost: 'hover:bg-accent hover:text-accent-foreground',
        link: 'text-primary underline-offset-4 hover:underline',
      },
      size: {
        default: 'h-11 px-4 py-2 [&_svg]:size-4',
        sm: 'h-9 rounded-md px-3 [&_svg]:size-4',
        lg: 'h-12 rounded-md px-8 text-base [&_svg]:size-4',
        icon: 'h-11 w-11 [&_svg]:size-4',
        // Its icon larger: the header's notifications bell.
        iconLarge: 'h-11 w-11 [&_svg]:size-5',
      },
    },
    defaultVariants: { variant: 'default', size: 'default' },
  },
);

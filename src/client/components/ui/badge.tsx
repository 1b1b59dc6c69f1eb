import { cva, type VariantProps } from 'class-variance-authority';
import type * as React from 'react';
import { cn } from '@/lib/utils';

/** Tones pair a light background with a 900-shade text: every pair is above 7:1 contrast (WCAG AA needs 4.5:1). */
const badgeVariants = cva(
  'inline-flex items-center rounded-full border px-2.5 py-0.5 text-xs font-semibold whitespace-nowrap',
  {
    variants: {
      tone: {
        neutral: 'border-gray-300 bg-gray-100 text-gray-900',
        yellow: 'border-yellow-300 bg-yellow-100 text-yellow-900',
        blue: 'border-blue-300 bg-blue-100 text-blue-900',
        green: 'border-green-300 bg-green-100 text-green-900',
        red: 'border-red-300 bg-red-100 text-red-900',
      },
    },
    defaultVariants: { tone: 'neutral' },
  },
);

export interface BadgeProps extends React.ComponentProps<'span'>, VariantProps<typeof badgeVariants> {}

export function Badge({ className, tone, ...props }: BadgeProps) {
  return <span className={cn(badgeVariants({ tone }), className)} {...props} />;
}

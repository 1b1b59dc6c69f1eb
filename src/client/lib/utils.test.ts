import { twMerge as defaultTwMerge } from 'tailwind-merge';
import { describe, expect, it } from 'vitest';
import { appClassGroups } from '../../../scripts/tw-merge-config.mjs';
import { twMergeConfig } from './tw-merge-config';
import { cn } from './utils';

/**
 * `cn()` merges with a cut-down tailwind-merge configuration (scripts/tw-merge-config.mjs). It must give what the
 * default gives for the app's classes. tailwind-merge decides, for each class from the last, whether an earlier one
 * is dropped by a later one that was kept (same group and modifiers, or a group the later one conflicts with): a
 * relation between two classes, so a merge equal to the default on every ordered pair of the app's classes is equal
 * on every list of them.
 */
const groups = appClassGroups(process.cwd());
const classes = [...groups.keys()];

describe('cn', () => {
  it('knows the class group of every class in the app', () => {
    const kept = new Set(Object.keys(twMergeConfig().classGroups));
    const missing = [...groups].filter(([, id]) => !kept.has(id) && !id.startsWith('arbitrary..'));
    expect(missing, 'a class of a group left out: run node scripts/tw-merge-config.mjs').toEqual([]);
    // The scan found the app's classes (a scan that found nothing would prove nothing below).
    expect(classes.length).toBeGreaterThan(300);
  });

  it("merges every ordered pair of the app's classes as tailwind-merge's default configuration does", () => {
    const differ: string[] = [];
    for (const a of classes) {
      for (const b of classes) {
        const list = `${a} ${b}`;
        if (cn(list) !== defaultTwMerge(list)) differ.push(`${list}: ${cn(list)} / ${defaultTwMerge(list)}`);
      }
    }
    expect(differ.slice(0, 20)).toEqual([]);
  });

  it('lets a later class win over an earlier one of the same or a conflicting group, modifiers apart', () => {
    expect(cn('p-6', 'p-0')).toBe('p-0');
    expect(cn('px-2 py-1', 'p-4')).toBe('p-4');
    expect(cn('p-4', 'px-2')).toBe('p-4 px-2');
    expect(cn('text-sm leading-6', 'text-lg')).toBe('text-lg');
    expect(cn('bg-primary hover:bg-primary/90', 'bg-destructive')).toBe('hover:bg-primary/90 bg-destructive');
    expect(cn('text-muted-foreground', 'text-sm')).toBe('text-muted-foreground text-sm');
    expect(cn('h-10 w-10', 'size-4')).toBe('size-4');
    expect(cn('rounded-md', false, undefined, 'rounded-full')).toBe('rounded-full');
  });
});

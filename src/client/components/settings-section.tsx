import type * as React from 'react';
import { useId } from 'react';
import { CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { cn } from '@/lib/utils';

/** One card of the Settings page: a section named by its heading. */
export function SettingsSection({
  title,
  description,
  headingRef,
  className,
  children,
}: {
  title: string;
  description?: string;
  /** Lets the section take focus back after the row that had it is gone (e.g. an unblocked person). */
  headingRef?: React.Ref<HTMLHeadingElement>;
  /** E.g. the danger zone's red border ('Delete account'). */
  className?: string;
  children: React.ReactNode;
}) {
  const id = useId();
  return (
    <section aria-labelledby={id} className={cn('rounded-lg border bg-card text-card-foreground shadow-sm', className)}>
      <CardHeader>
        <CardTitle id={id} ref={headingRef} tabIndex={-1} className="rounded-sm focus:outline-none">
          {title}
        </CardTitle>
        {description ? <CardDescription>{description}</CardDescription> : null}
      </CardHeader>
      <CardContent>{children}</CardContent>
    </section>
  );
}

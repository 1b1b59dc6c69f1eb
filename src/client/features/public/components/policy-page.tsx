import type * as React from 'react';
import { useTodayLong } from '@/lib/site-config';

/** Layout of the policy pages: title, 'Last updated' (the current day, spec section 2) and sections. */
export function PolicyPage({ title, intro, children }: { title: string; intro: string; children: React.ReactNode }) {
  const today = useTodayLong();
  return (
    <article className="mx-auto max-w-3xl px-4 py-12 md:py-16">
      <h1 className="text-3xl font-bold tracking-tight md:text-4xl">{title}</h1>
      <p className="mt-2 text-muted-foreground">Last updated: {today}</p>
      <p className="mt-6 text-lg">{intro}</p>
      <div className="mt-8 space-y-8">{children}</div>
    </article>
  );
}

export function PolicySection({ title, children }: { title: string; children: React.ReactNode }) {
  return (
    <section className="space-y-3">
      <h2 className="text-xl font-semibold">{title}</h2>
      {children}
    </section>
  );
}

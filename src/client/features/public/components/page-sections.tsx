import type * as React from 'react';
import { Link } from '@/lib/router';
import { clsx } from 'clsx';
import { SIGN_UP_PATH } from '@shared/routes';

/** The opening of a public page: its one <h1> and a short lead. */
export function PageHero({ title, lead, children }: { title: string; lead: string; children?: React.ReactNode }) {
  return (
    <section className="bg-secondary px-4 py-12 text-center md:py-16">
      <div className="mx-auto max-w-3xl">
        <h1 className="text-3xl font-bold tracking-tight text-secondary-foreground md:text-5xl">{title}</h1>
        <p className="mx-auto mt-4 max-w-2xl text-lg text-foreground">{lead}</p>
        {children}
      </div>
    </section>
  );
}

export function Section({
  title,
  intro,
  children,
  className,
  id,
}: {
  title: string;
  intro?: string;
  children: React.ReactNode;
  className?: string;
  id?: string;
}) {
  const headingId = id ?? `section-${title.toLowerCase().replace(/[^a-z0-9]+/g, '-')}`;
  return (
    <section aria-labelledby={headingId} className={clsx('px-4 py-12 md:py-16', className)}>
      <div className="mx-auto max-w-6xl">
        <div className="mx-auto mb-10 max-w-2xl text-center">
          <h2 id={headingId} className="text-2xl font-bold tracking-tight md:text-3xl">
            {title}
          </h2>
          {intro ? <p className="mt-3 text-muted-foreground">{intro}</p> : null}
        </div>
        {children}
      </div>
    </section>
  );
}

/** Primary and secondary calls to action, styled as buttons but real links (crawlable, work before JS). */
export function CtaLink({
  to,
  children,
  variant = 'primary',
  className,
}: {
  to: string;
  children: React.ReactNode;
  variant?: 'primary' | 'outline';
  className?: string;
}) {
  return (
    <Link
      to={to}
      className={clsx(
        'inline-flex h-12 items-center justify-center rounded-md px-6 text-base font-medium transition-colors focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring focus-visible:ring-offset-2',
        variant === 'primary'
          ? 'bg-primary text-primary-foreground hover:bg-primary/90'
          : 'border border-primary bg-background text-primary hover:bg-accent',
        className,
      )}
    >
      {children}
    </Link>
  );
}

/** The closing "sign up" band shared by the marketing pages. */
export function SignUpBand({ title, text, action }: { title: string; text: string; action: string }) {
  return (
    <section aria-labelledby="cta-heading" className="bg-primary px-4 py-12 text-center md:py-16">
      <div className="mx-auto max-w-2xl">
        <h2 id="cta-heading" className="text-2xl font-bold tracking-tight text-primary-foreground md:text-3xl">
          {title}
        </h2>
        <p className="mt-3 text-lg text-primary-foreground">{text}</p>
        <Link
          to={SIGN_UP_PATH}
          className="mt-8 inline-flex h-12 items-center justify-center rounded-md bg-background px-6 text-base font-medium text-primary hover:bg-secondary focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-primary-foreground focus-visible:ring-offset-2 focus-visible:ring-offset-primary"
        >
          {action}
        </Link>
      </div>
    </section>
  );
}

import { Mail, MapPin, Phone, type LucideIcon } from 'lucide-react';
import type * as React from 'react';
import { getSiteConfig } from '@/lib/site-config';

function ContactCard({ icon: Icon, title, children }: { icon: LucideIcon; title: string; children: React.ReactNode }) {
  return (
    <li className="rounded-lg border bg-card p-6 text-center shadow-sm">
      <Icon aria-hidden className="mx-auto size-8 text-primary" />
      <h2 className="mt-3 text-lg font-semibold">{title}</h2>
      <div className="mt-1 text-muted-foreground">{children}</div>
    </li>
  );
}

const linkClass = 'font-medium text-primary underline underline-offset-4 break-all';

/** E-mail, phone and location. The e-mail and phone are the server's SUPPORT_EMAIL / SUPPORT_PHONE settings. */
export function ContactCards() {
  const { supportEmail, supportPhone, supportPhoneHref } = getSiteConfig();
  return (
    <ul className="grid gap-6 md:grid-cols-3">
      <ContactCard icon={Mail} title="Email">
        <a href={`mailto:${supportEmail}`} className={linkClass}>
          {supportEmail}
        </a>
      </ContactCard>
      <ContactCard icon={Phone} title="Phone">
        <a href={supportPhoneHref} className={linkClass}>
          {supportPhone}
        </a>
      </ContactCard>
      <ContactCard icon={MapPin} title="Location">
        <p>Rural America</p>
      </ContactCard>
    </ul>
  );
}

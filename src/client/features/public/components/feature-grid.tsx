import type { LucideIcon } from 'lucide-react';

export interface Feature {
  title: string;
  text: string;
  icon: LucideIcon;
}

/** Cards of short benefits or values, each with an icon, a heading and a sentence. */
export function FeatureGrid({ items, columns = 3 }: { items: readonly Feature[]; columns?: 2 | 3 | 4 }) {
  const grid = { 2: 'md:grid-cols-2', 3: 'md:grid-cols-2 lg:grid-cols-3', 4: 'md:grid-cols-2 lg:grid-cols-4' }[columns];
  return (
    <ul className={`grid gap-6 ${grid}`}>
      {items.map(({ title, text, icon: Icon }) => (
        <li key={title} className="rounded-lg border bg-card p-6 shadow-sm">
          <Icon aria-hidden className="size-8 text-primary" />
          <h3 className="mt-4 text-lg font-semibold">{title}</h3>
          <p className="mt-2 text-muted-foreground">{text}</p>
        </li>
      ))}
    </ul>
  );
}

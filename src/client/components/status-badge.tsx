import { Badge, type BadgeProps } from '@/components/ui/badge';
import { capitalize } from '@/lib/format';

export type BadgeTone = NonNullable<BadgeProps['tone']>;

/** A status as the spec shows it: capitalised ('active' -> 'Active'), grey unless a tone is given. */
export function StatusBadge({ status, tone }: { status: string; tone?: BadgeTone }) {
  return <Badge tone={tone}>{capitalize(status)}</Badge>;
}

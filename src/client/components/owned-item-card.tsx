import type * as React from 'react';
import { ConfirmDeleteButton } from '@/components/confirm-delete-button';
import { StatusBadge } from '@/components/status-badge';
import { Card, CardContent, CardHeader, CardTitle } from '@/components/ui/card';

/**
 * A card on one of the user's own lists: its title and status badge (grey unless `badge` gives a coloured one), a
 * guarded delete button, then its details.
 */
export function OwnedItemCard({
  title,
  status,
  badge,
  remove,
  children,
}: {
  title: string;
  status: string;
  badge?: React.ReactNode;
  remove: React.ComponentProps<typeof ConfirmDeleteButton>;
  children: React.ReactNode;
}) {
  return (
    <Card>
      <CardHeader className="flex-row items-start justify-between gap-2 space-y-0">
        <div className="min-w-0 space-y-2">
          <CardTitle className="break-words">{title}</CardTitle>
          {badge ?? <StatusBadge status={status} />}
        </div>
        <ConfirmDeleteButton {...remove} />
      </CardHeader>
      <CardContent>{children}</CardContent>
    </Card>
  );
}

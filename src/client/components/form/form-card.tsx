import type { FormEventHandler, ReactNode } from 'react';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardHeader, CardTitle } from '@/components/ui/card';

/**
 * A page's form in a card: titled (and named by its title for screen readers), validated by the shared schema
 * rather than the browser (noValidate, so the schema's messages are the ones users see), with its busy label.
 */
export function FormCard({
  id,
  title,
  onSubmit,
  busy,
  submitLabel,
  busyLabel,
  onCancel,
  children,
}: {
  id: string;
  title: string;
  onSubmit: FormEventHandler<HTMLFormElement>;
  busy: boolean;
  submitLabel: string;
  busyLabel: string;
  onCancel: () => void;
  children: ReactNode;
}) {
  return (
    <Card className="mb-6">
      <CardHeader>
        <CardTitle id={`${id}-title`}>{title}</CardTitle>
      </CardHeader>
      <CardContent>
        <form
          id={id}
          aria-labelledby={`${id}-title`}
          noValidate
          className="grid gap-4 md:grid-cols-2"
          onSubmit={onSubmit}
        >
          {children}
          <div className="flex flex-wrap gap-2 md:col-span-2">
            <Button type="submit" disabled={busy}>
              {busy ? busyLabel : submitLabel}
            </Button>
            <Button type="button" variant="outline" onClick={onCancel}>
              Cancel
            </Button>
          </div>
        </form>
      </CardContent>
    </Card>
  );
}

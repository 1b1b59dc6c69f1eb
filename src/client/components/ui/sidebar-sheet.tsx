import type * as React from 'react';
import { Sheet, SheetContent, SheetDescription, SheetTitle } from '@/components/ui/sheet';

/** The sidebar on a phone: a sheet from the left (its own chunk, loaded when first opened: see Sidebar). */
export function SidebarSheet({
  open,
  onOpenChange,
  label,
  children,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  label: string;
  children: React.ReactNode;
}) {
  return (
    <Sheet open={open} onOpenChange={onOpenChange}>
      <SheetContent
        data-sidebar="sidebar"
        data-mobile="true"
        // Portalled outside the provider, so the 18rem mobile width is literal here.
        className="w-[18rem] max-w-[85vw] p-0"
        aria-label={label}
      >
        <SheetTitle className="sr-only">{label}</SheetTitle>
        <SheetDescription className="sr-only">Navigation for your RuralRoute dashboard.</SheetDescription>
        <div className="flex h-full flex-col">{children}</div>
      </SheetContent>
    </Sheet>
  );
}

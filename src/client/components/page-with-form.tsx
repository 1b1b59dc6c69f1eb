import { Plus } from 'lucide-react';
import { useRef, useState, type ComponentType, type ReactNode } from 'react';
import { PageHeader } from '@/components/page-header';
import { Button } from '@/components/ui/button';

/**
 * A "My ..." page: its title, a button that shows and hides the page's form, then the list. Closing the form
 * returns focus to the button, so keyboard users continue where they were, not from the top of the page.
 */
export function PageWithForm({
  title,
  toggleLabel,
  formId,
  form: Form,
  children,
}: {
  title: string;
  toggleLabel: string;
  formId: string;
  form: ComponentType<{ id: string; onDone: () => void }>;
  children: ReactNode;
}) {
  const [formOpen, setFormOpen] = useState(false);
  const toggleRef = useRef<HTMLButtonElement>(null);

  const closeForm = () => {
    setFormOpen(false);
    toggleRef.current?.focus();
  };

  return (
    <div>
      <PageHeader
        title={title}
        actions={
          <Button
            ref={toggleRef}
            aria-expanded={formOpen}
            aria-controls={formOpen ? formId : undefined}
            onClick={() => setFormOpen((open) => !open)}
          >
            <Plus aria-hidden />
            {toggleLabel}
          </Button>
        }
      />
      {formOpen ? <Form id={formId} onDone={closeForm} /> : null}
      {children}
    </div>
  );
}

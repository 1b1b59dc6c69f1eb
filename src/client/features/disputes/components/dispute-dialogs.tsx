import { MessageSquareReply, TriangleAlert } from 'lucide-react';
import { lazy, Suspense, useState } from 'react';
import type * as React from 'react';
import { DISPUTE_RESPONSE_LABEL, REPORT_PROBLEM_LABEL } from '@shared/disputes';
import type { BookingDetail } from '@shared/lifecycle';
import { Button } from '@/components/ui/button';
import {
  Dialog,
  DialogContent,
  DialogDescription,
  DialogHeader,
  DialogTitle,
  DialogTrigger,
} from '@/components/ui/dialog';

// The forms (and their rules) load when a dialog is first wanted: most visits to a booking never report a problem.
const loadReport = () => import('./report-problem-form');
const loadResponse = () => import('./dispute-response-form');
const ReportProblemForm = lazy(() => loadReport().then((m) => ({ default: m.ReportProblemForm })));
const DisputeResponseForm = lazy(() => loadResponse().then((m) => ({ default: m.DisputeResponseForm })));

/** While a form's code arrives (a weak signal). */
function Loading() {
  return (
    <p role="status" className="text-muted-foreground">
      Loading the form...
    </p>
  );
}

/**
 * A button opening a dialog (its title and description here) whose form loads with its first opening (fetched ahead
 * when the pointer or focus reaches the button). The form unmounts on close, so it opens empty each time; once it was
 * sent, `onDone` says where focus goes (the button is then gone from the page), otherwise it returns to the button.
 */
function LazyFormDialog({
  label,
  icon,
  title,
  description,
  preload,
  onDone,
  children,
}: {
  label: string;
  icon: React.ReactNode;
  title: string;
  description: string;
  preload: () => Promise<unknown>;
  onDone: () => void;
  children: (onSent: () => void) => React.ReactNode;
}) {
  const [open, setOpen] = useState(false);
  // Set when the form was sent (not dismissed): focus then goes where `onDone` says.
  const [sent, setSent] = useState(false);
  const warm = () => void preload().catch(() => undefined);
  return (
    <Dialog open={open} onOpenChange={setOpen}>
      <DialogTrigger asChild>
        <Button variant="outline" onPointerEnter={warm} onFocus={warm}>
          {icon}
          {label}
        </Button>
      </DialogTrigger>
      <DialogContent
        onCloseAutoFocus={(event) => {
          if (!sent) return;
          setSent(false);
          event.preventDefault();
          onDone();
        }}
      >
        <DialogHeader>
          <DialogTitle>{title}</DialogTitle>
          <DialogDescription>{description}</DialogDescription>
        </DialogHeader>
        <Suspense fallback={<Loading />}>
          {children(() => {
            setSent(true);
            setOpen(false);
          })}
        </Suspense>
      </DialogContent>
    </Dialog>
  );
}

/** 'Report a problem' (when the server says I may): the dialog asking what happened. */
export function ReportProblemButton({ booking, onDone }: { booking: BookingDetail; onDone: () => void }) {
  return (
    <LazyFormDialog
      label={REPORT_PROBLEM_LABEL}
      icon={<TriangleAlert aria-hidden />}
      title={REPORT_PROBLEM_LABEL}
      description="Tell RuralRoute what went wrong. The other person sees your report and can respond; a moderator then decides."
      preload={loadReport}
      onDone={onDone}
    >
      {(onSent) => <ReportProblemForm booking={booking} onSent={onSent} />}
    </LazyFormDialog>
  );
}

/** 'Response' (the other person, once, while the dispute is open). */
export function DisputeResponseButton({
  bookingId,
  reporterName,
  onDone,
}: {
  bookingId: string;
  reporterName: string;
  onDone: () => void;
}) {
  return (
    <LazyFormDialog
      label={DISPUTE_RESPONSE_LABEL}
      icon={<MessageSquareReply aria-hidden />}
      title={DISPUTE_RESPONSE_LABEL}
      description={`${reporterName} reported a problem. Give your side once: a moderator reads both before deciding.`}
      preload={loadResponse}
      onDone={onDone}
    >
      {(onSent) => <DisputeResponseForm bookingId={bookingId} onSent={onSent} />}
    </LazyFormDialog>
  );
}

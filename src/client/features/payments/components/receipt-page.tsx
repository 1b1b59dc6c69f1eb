import { Printer } from 'lucide-react';
import { Link, useParams } from '@/lib/router';
import { formatCents } from '@shared/money';
import { CREDIT_LABEL, paymentStateLabel, type Receipt } from '@shared/payments';
import { bookingDetailPath, PAGE_PATHS } from '@shared/routes';
import { BackLink } from '@/components/back-link';
import { DetailQuery } from '@/components/detail-query';
import { PageHeader } from '@/components/page-header';
import { Button } from '@/components/ui/button';
import { Card, CardContent } from '@/components/ui/card';
import { formatInstant } from '@/lib/format';
import { useReceipt } from '../api/payments';
import { TestModeNotice } from '@/components/test-mode-notice';

function ReceiptView({ receipt: r }: { receipt: Receipt }) {
  const requester = r.role === 'requester';
  const creditBack = Math.min(r.refunded_cents, r.credit_cents ?? 0);
  const lines: [string, string][] = [
    ['Delivery', r.title],
    ['Driver', r.driver_name],
    ['Requester', r.requester_name],
    [requester ? `Delivery by ${r.driver_name}` : 'Compensation', formatCents(r.compensation_cents)],
    ...(r.fee_cents !== null ? [['Service fee', formatCents(r.fee_cents)] as [string, string]] : []),
    ...(r.total_cents !== null ? [['Total paid', formatCents(r.total_cents)] as [string, string]] : []),
    ...(r.credit_cents ? [[CREDIT_LABEL, formatCents(r.credit_cents)] as [string, string]] : []),
    ...(r.card ? [['Card', r.card] as [string, string]] : []),
    ['Paid on', formatInstant(r.paid_at)],
    ['State', paymentStateLabel(r.state, formatCents(r.refunded_cents), r.chargeback)],
    ...(r.settled_at
      ? [[r.state === 'released' ? 'Released on' : 'Settled on', formatInstant(r.settled_at)] as [string, string]]
      : []),
    // A refund gives the credit that paid back as credit first, the rest to the card (docs/payments.md).
    ...(creditBack ? [['Refunded as RuralRoute credit', formatCents(creditBack)] as [string, string]] : []),
    ...(r.refunded_cents - creditBack
      ? [['Refunded to the card', formatCents(r.refunded_cents - creditBack)] as [string, string]]
      : []),
    ...(!requester ? [['You received', formatCents(r.driver_received_cents)] as [string, string]] : []),
    ['Receipt number', r.id],
  ];
  return (
    <div className="mx-auto max-w-2xl space-y-4">
      <div>
        <BackLink to={PAGE_PATHS.payments}>Payments</BackLink>
        <PageHeader
          title="Receipt"
          description={`For “${r.title}”`}
          actions={
            <Button variant="outline" onClick={() => window.print()} className="print:hidden">
              <Printer aria-hidden />
              Print
            </Button>
          }
        />
      </div>
      <TestModeNotice show={r.test_mode} />
      <Card>
        <CardContent className="pt-6">
          <dl className="divide-y">
            {lines.map(([label, value]) => (
              <div key={label} className="grid grid-cols-1 gap-1 py-2 sm:grid-cols-2">
                <dt className="text-muted-foreground">{label}</dt>
                <dd className="break-words font-medium">{value}</dd>
              </div>
            ))}
          </dl>
        </CardContent>
      </Card>
      <p className="print:hidden">
        <Link to={bookingDetailPath(r.booking_id)} className="font-medium text-primary underline underline-offset-4">
          Open the booking
        </Link>
      </p>
    </div>
  );
}

/** '/dashboard/payments/:id/receipt': a payment's receipt, for its requester or its driver (404 for anyone else). */
export function ReceiptPage() {
  const { id = '' } = useParams();
  return (
    <DetailQuery
      query={useReceipt(id)}
      what="this receipt"
      notFound={{
        title: 'Receipt not found',
        text: 'This payment does not exist, or it is not yours.',
        back: { to: PAGE_PATHS.payments, label: 'Back to Payments' },
      }}
    >
      {(receipt) => <ReceiptView receipt={receipt} />}
    </DetailQuery>
  );
}

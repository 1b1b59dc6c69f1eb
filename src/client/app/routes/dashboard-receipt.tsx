import { ReceiptPage } from '@/features/payments/components/receipt-page';

export function Component() {
  return <ReceiptPage />;
}

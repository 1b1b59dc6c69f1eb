import { TEST_MODE_NOTICE } from '@shared/payments';

/** 'Test mode: no real money moves.' wherever money shows while the embedded test provider runs. */
export function TestModeNotice({ show, extra }: { show: boolean | undefined; extra?: string }) {
  if (!show) return null;
  return (
    <p className="rounded-md border border-amber-300 bg-amber-50 px-3 py-2 text-sm text-amber-900">
      {TEST_MODE_NOTICE}
      {extra ? ` ${extra}` : ''}
    </p>
  );
}

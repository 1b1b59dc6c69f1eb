import { useParams } from '@/lib/router';
import { RequestDetailPage } from '@/features/requests/components/request-detail-page';

export function Component() {
  const { id = '' } = useParams();
  // Keyed by id: another request's page starts from its own state (dialogs closed, nothing pending).
  return <RequestDetailPage key={id} id={id} />;
}

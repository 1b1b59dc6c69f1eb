import { useParams } from '@/lib/router';
import { ProfilePage } from '@/features/reviews/components/profile-page';

export function Component() {
  const { id = '' } = useParams();
  // Keyed by id: another person's profile starts from its own state.
  return <ProfilePage key={id} id={id} />;
}

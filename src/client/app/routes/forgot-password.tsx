import { ForgotPasswordPage } from '@/features/auth/components/forgot-password-page';
import { PageMeta } from '@/components/page-meta';

export function Component() {
  return (
    <>
      <PageMeta
        title="Forgot password — RuralRoute"
        description="Ask RuralRoute for a link to choose a new password for your account."
        meta={{ robots: 'noindex' }}
      />
      <ForgotPasswordPage />
    </>
  );
}

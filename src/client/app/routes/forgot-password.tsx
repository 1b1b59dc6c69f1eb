import { ForgotPasswordPage } from '@/features/auth/components/forgot-password-page';
import { PageMeta } from '@/features/public/components/page-meta';

export function Component() {
  return (
    <>
      <PageMeta
        title="Forgot password — RuralRoute"
        description="Ask RuralRoute for a link to choose a new password for your account."
      />
      <meta name="robots" content="noindex" />
      <ForgotPasswordPage />
    </>
  );
}

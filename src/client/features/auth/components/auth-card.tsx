import { useState } from 'react';
import { Card, CardContent, CardDescription, CardHeader } from '@/components/ui/card';
import { LinkTabList, LinkTabPanel, type LinkTab } from '@/components/ui/link-tabs';
import { useHydrated } from '@/hooks/use-hydrated';
import { useTabParam } from '@/hooks/use-tab-param';
import { useSession } from '../api/session';
import { SignInForm } from './sign-in-form';
import { SignUpForm } from './sign-up-form';
import { TwoFactorStep } from './two-factor-step';
import { PAGE_PATHS, SIGN_UP_PATH } from '@shared/routes';

export type AuthTab = 'signin' | 'signup';

/** 'Sign In' is the page itself; 'Sign Up' is `?tab=signup`, prerendered too (PRERENDERED_VARIANTS). */
const TABS: readonly LinkTab<AuthTab>[] = [
  { value: 'signin', label: 'Sign In', href: PAGE_PATHS.auth },
  { value: 'signup', label: 'Sign Up', href: SIGN_UP_PATH },
];

/**
 * /auth: the 'Sign In' and 'Sign Up' tabs, or, after a correct password with two-factor on (the session is
 * `two_factor_pending`, also when the page is opened again), the 'Authentication code' step.
 */
export function AuthCard() {
  // The open tab is the address's: a tap on a tab before the script has loaded follows its link (decision 027).
  const [tab, setTab] = useTabParam<AuthTab>(['signin', 'signup'], { preventScrollReset: true });
  const [createdEmail, setCreatedEmail] = useState('');
  // The session is known in the browser only: the prerendered page (and its hydration) shows the tabs.
  const session = useSession();
  const pending = useHydrated() && session.data?.two_factor_pending === true;

  return (
    <Card className="w-full max-w-md">
      <CardHeader className="text-center">
        <h1 className="text-2xl font-bold leading-tight">Welcome to RuralRoute</h1>
        <CardDescription>
          Sign in or create an account to share rides and deliveries with your neighbours.
        </CardDescription>
      </CardHeader>
      <CardContent>
        {pending ? (
          <TwoFactorStep />
        ) : (
          <>
            <LinkTabList tabs={TABS} value={tab} onSelect={setTab} idBase="auth" />
            <LinkTabPanel idBase="auth" value={tab}>
              {tab === 'signin' ? (
                <SignInForm key={createdEmail} defaultEmail={createdEmail} />
              ) : (
                <SignUpForm
                  onCreated={(email) => {
                    setCreatedEmail(email);
                    setTab('signin');
                  }}
                />
              )}
            </LinkTabPanel>
          </>
        )}
      </CardContent>
    </Card>
  );
}

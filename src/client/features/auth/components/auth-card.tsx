import { useState } from 'react';
import { Card, CardContent, CardDescription, CardHeader } from '@/components/ui/card';
import { Tabs, TabsContent, TabsList, TabsTrigger } from '@/components/ui/tabs';
import { useHydrated } from '@/hooks/use-hydrated';
import { useSession } from '../api/session';
import { SignInForm } from './sign-in-form';
import { SignUpForm } from './sign-up-form';
import { TwoFactorStep } from './two-factor-step';

export type AuthTab = 'signin' | 'signup';

/**
 * /auth: the 'Sign In' and 'Sign Up' tabs, or, after a correct password with two-factor on (the session is
 * `two_factor_pending`, also when the page is opened again), the 'Authentication code' step.
 */
export function AuthCard({ initialTab = 'signin' }: { initialTab?: AuthTab }) {
  const [tab, setTab] = useState<AuthTab>(initialTab);
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
          <Tabs value={tab} onValueChange={(v) => setTab(v as AuthTab)}>
            <TabsList>
              <TabsTrigger value="signin">Sign In</TabsTrigger>
              <TabsTrigger value="signup">Sign Up</TabsTrigger>
            </TabsList>
            <TabsContent value="signin">
              <SignInForm key={createdEmail} defaultEmail={createdEmail} />
            </TabsContent>
            <TabsContent value="signup">
              <SignUpForm
                onCreated={(email) => {
                  setCreatedEmail(email);
                  setTab('signin');
                }}
              />
            </TabsContent>
          </Tabs>
        )}
      </CardContent>
    </Card>
  );
}

import { useState } from 'react';
import { Card, CardContent, CardDescription, CardHeader } from '@/components/ui/card';
import { Tabs, TabsContent, TabsList, TabsTrigger } from '@/components/ui/tabs';
import { SignInForm } from './sign-in-form';
import { SignUpForm } from './sign-up-form';

export type AuthTab = 'signin' | 'signup';

export function AuthCard({ initialTab = 'signin' }: { initialTab?: AuthTab }) {
  const [tab, setTab] = useState<AuthTab>(initialTab);
  const [createdEmail, setCreatedEmail] = useState('');

  return (
    <Card className="w-full max-w-md">
      <CardHeader className="text-center">
        <h1 className="text-2xl font-bold leading-tight">Welcome to RuralRoute</h1>
        <CardDescription>
          Sign in or create an account to share rides and deliveries with your neighbours.
        </CardDescription>
      </CardHeader>
      <CardContent>
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
      </CardContent>
    </Card>
  );
}

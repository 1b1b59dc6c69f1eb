import { lazy, Suspense, useCallback, useEffect, useState } from 'react';
import { useNavigate, useSearchParams } from '@/lib/router';
import type { SessionInfo } from '@shared/auth';
import { Card, CardContent, CardDescription, CardHeader } from '@/components/ui/card';
import { LinkTabList, LinkTabPanel, type LinkTab } from '@/components/ui/link-tabs';
import { useTabParam } from '@/hooks/use-tab-param';
import { preloadPage } from '@/lib/page-preloader';
import { SESSION_CHANNEL } from '@/lib/session-channel';
import { SignInForm } from './sign-in-form';
import { SignUpForm } from './sign-up-form';
import { PAGE_PATHS, SIGN_UP_PATH } from '@shared/routes';

export type AuthTab = 'signin' | 'signup';

/** 'Sign In' is the page itself; 'Sign Up' is `?tab=signup`, prerendered too (PRERENDERED_VARIANTS). */
const TABS: readonly LinkTab<AuthTab>[] = [
  { value: 'signin', label: 'Sign In', href: PAGE_PATHS.auth },
  { value: 'signup', label: 'Sign Up', href: SIGN_UP_PATH },
];

/** The code step comes with the query cache it uses, both fetched only when a sign-in waits for a code. */
const TwoFactorPanel = lazy(() =>
  import('./two-factor-panel').then(async (m) => {
    await m.cacheRestored;
    return { default: m.TwoFactorPanel };
  }),
);

/**
 * Who this browser is signed in as, asked once the page has loaded (the prerendered page is the same for everyone),
 * and again when another tab says someone has signed in (the session cookie is the browser's): a plain request, not
 * the app's query cache, which /auth's first scripts do without.
 */
function useSessionOnArrival(onSession: (session: SessionInfo) => unknown) {
  useEffect(() => {
    const controller = new AbortController();
    const ask = () =>
      fetch('/api/auth/session', { signal: controller.signal, headers: { accept: 'application/json' } })
        .then((res) => (res.ok ? (res.json() as Promise<SessionInfo>) : undefined))
        .then((session) => session && onSession(session))
        // No signal: the forms are there, and signing in says what the line allows.
        .catch(() => undefined);
    void ask();
    const channel = typeof BroadcastChannel === 'function' ? new BroadcastChannel(SESSION_CHANNEL) : undefined;
    if (channel) {
      channel.onmessage = (event: MessageEvent<string | null>) => {
        if (event.data !== null) void ask();
      };
    }
    return () => {
      controller.abort();
      channel?.close();
    };
  }, [onSession]);
}

/** A `next` address to return to after signing in: a dashboard page of this site only, else the dashboard. */
export function safeNext(next: string | null): string {
  if (!next || !next.startsWith(`${PAGE_PATHS.dashboard}`) || next.startsWith('//') || next.includes('\\'))
    return PAGE_PATHS.dashboard;
  return next;
}

/**
 * /auth: the 'Sign In' and 'Sign Up' tabs, or, after a correct password with two-factor on (the session is
 * `two_factor_pending`, also when the page is opened again), the 'Authentication code' step. A signed-in person is
 * sent on to the dashboard.
 */
export function AuthCard() {
  // The open tab is the address's: a tap on a tab before the script has loaded follows its link (decision 027).
  const [tab, setTab] = useTabParam<AuthTab>(['signin', 'signup'], { preventScrollReset: true });
  const [createdEmail, setCreatedEmail] = useState('');
  const [pending, setPending] = useState(false);
  const navigate = useNavigate();
  // Where a signed-out visitor was going (a dashboard page, e.g. /pricing's 'Choose Plus'): back there once signed in.
  const [params] = useSearchParams();
  const [next] = useState(() => safeNext(params.get('next')));
  const onSession = useCallback(
    async (session: SessionInfo) => {
      if (session.two_factor_pending) return setPending(true);
      if (!session.user) return;
      // The page's code first (the sign-in button stays 'Signing in...'), then its address: no page between.
      await preloadPage(new URL(next, window.location.origin).pathname);
      navigate(next, { replace: true });
    },
    [navigate, next],
  );
  useSessionOnArrival(onSession);
  const leave = useCallback(() => setPending(false), []);

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
          <Suspense fallback={<p role="status">Loading...</p>}>
            <TwoFactorPanel onLeave={leave} />
          </Suspense>
        ) : (
          <>
            <LinkTabList tabs={TABS} value={tab} onSelect={setTab} idBase="auth" />
            <LinkTabPanel idBase="auth" value={tab}>
              {tab === 'signin' ? (
                <SignInForm key={createdEmail} defaultEmail={createdEmail} onSignedIn={onSession} />
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

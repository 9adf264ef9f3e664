import { useCallback, useEffect, useRef, useState, type ReactNode } from 'react';
import type { EndSessionInfo } from '@life/contracts';
import { Link, useRouter } from '@tanstack/react-router';
import { CircleCheck, LoaderCircle, LogOut } from 'lucide-react';
import { Trans, useTranslation } from 'react-i18next';
import { PageStatus } from '@/components/layout/page-status';
import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { applyRequestedLanguage } from '@/i18n/language';
import { apiErrorMessage } from '@/lib/api-client';
import { logout } from '@/lib/auth';
import { useSession } from '@/lib/session';
import { reportError } from '@/lib/report-error';
import { useEndSessionInfo } from '../api/get-end-session-info';
import { leavePageFor } from '../utils/leave-page';

type Phase = 'ask' | 'signingOut' | 'leaving' | 'done';

function hostOf(url: string | null): string | undefined {
  if (!url) return undefined;
  try {
    return new URL(url).host || undefined;
  } catch {
    return undefined;
  }
}

/**
 * RP-initiated logout (`/oauth/logout`, OpenID Connect RP-Initiated Logout 1.0, decision 0034).
 * The server checks the request first (`GET /oauth/logout` as JSON): a bad request shows its
 * message here and goes nowhere. Signed in, the page asks "¿Cerrar sesión en Life?" (naming the
 * app when known), so a page on another site cannot sign people out behind their back; on yes it
 * ends the session with the usual sign-out API and goes to the app's registered
 * post_logout_redirect_uri (with state), or says the person is signed out. Signed out, there is
 * nothing to ask: it goes there, or says so, at once.
 */
export function LogoutPage() {
  const { t } = useTranslation();
  const router = useRouter();
  // The raw query, read once (the router's parsed copy would turn numeric-looking values into numbers).
  const [search] = useState(() => router.history.location.search);
  const { isSignedIn, user } = useSession();
  const info = useEndSessionInfo(search);
  const [phase, setPhase] = useState<Phase>('ask');

  // The app may ask for a language (ui_locales); a person's own choice wins.
  useEffect(() => {
    void applyRequestedLanguage(new URLSearchParams(search).get('ui_locales'));
  }, [search]);

  useEffect(() => {
    if (info.error) reportError('Error cargando la solicitud de cierre de sesión', info.error);
  }, [info.error]);

  const finish = useCallback((answer: EndSessionInfo) => {
    if (answer.redirect_to) {
      setPhase('leaving');
      leavePageFor(answer.redirect_to);
    } else {
      setPhase('done');
    }
  }, []);

  // Not signed in when the page opens: nothing to ask. Straight to the app (once, even in StrictMode), or the "signed out" screen.
  const data = info.data;
  const signedOutOnArrival = !!data && !isSignedIn && phase === 'ask';
  const left = useRef(false);
  useEffect(() => {
    if (!signedOutOnArrival || !data.redirect_to || left.current) return;
    left.current = true;
    leavePageFor(data.redirect_to);
  }, [signedOutOnArrival, data]);

  const confirm = () => {
    if (!data) return;
    setPhase('signingOut');
    // The usual sign-out: tells the server (the session ends there), then forgets it here.
    void logout(() => finish(data));
  };

  if (info.isPending) return <PageStatus message={t('oauth.logout.loading')} visuallyHidden />;

  if (info.isError) {
    return (
      <LogoutCard testId="logout-error">
        <h1 className="text-xl font-semibold tracking-tight text-foreground sm:text-2xl">{t('oauth.logout.errorTitle')}</h1>
        <Alert variant="error" className="mt-5" data-testid="logout-error-message">
          {apiErrorMessage(info.error) ?? t('oauth.logout.generic')}
        </Alert>
        <p className="mt-4 text-sm text-muted-foreground">{t('oauth.logout.errorNote')}</p>
      </LogoutCard>
    );
  }

  const answer = info.data;
  const host = hostOf(answer.redirect_to);

  if (phase === 'done' || (signedOutOnArrival && !answer.redirect_to)) {
    return (
      <LogoutCard testId="logout-done">
        <div className="flex items-center gap-3" role="status">
          <span className="inline-flex size-10 shrink-0 items-center justify-center rounded-full bg-green-100 text-green-800">
            <CircleCheck aria-hidden="true" className="size-5" />
          </span>
          <h1 className="text-xl font-semibold tracking-tight text-foreground sm:text-2xl">{t('oauth.logout.doneTitle')}</h1>
        </div>
        <p className="mt-5 text-foreground" data-testid="logout-done-text">
          {answer.client_name ? t('oauth.logout.doneWithApp', { client_name: answer.client_name }) : t('oauth.logout.done')}
        </p>
        <Button asChild variant="outline" size="lg" className="mt-6 w-full sm:w-auto">
          <Link to="/" data-testid="logout-home">
            {t('oauth.logout.home')}
          </Link>
        </Button>
      </LogoutCard>
    );
  }

  if (phase === 'leaving' || !isSignedIn) {
    return <PageStatus message={host ? t('oauth.logout.redirecting', { host }) : t('oauth.logout.signingOut')} />;
  }

  const busy = phase === 'signingOut';
  return (
    <LogoutCard testId="logout-question">
      <div className="flex items-center gap-3">
        <span className="inline-flex size-10 shrink-0 items-center justify-center rounded-full bg-secondary text-secondary-foreground">
          <LogOut aria-hidden="true" className="size-5" />
        </span>
        <h1 className="text-xl font-semibold tracking-tight text-foreground sm:text-2xl">{t('oauth.logout.question')}</h1>
      </div>
      <p className="mt-5 text-foreground" data-testid="logout-asked">
        {answer.client_name ? (
          <Trans i18nKey="oauth.logout.askedByApp" values={{ client_name: answer.client_name }} components={{ strong: <strong className="font-semibold" /> }} />
        ) : (
          t('oauth.logout.asked')
        )}
      </p>
      {user && <p className="mt-2 text-sm break-words text-muted-foreground">{t('oauth.logout.signedInAs', { username: user.username })}</p>}
      {host && <p className="mt-2 text-sm break-words text-muted-foreground">{t('oauth.logout.returnTo', { host })}</p>}
      {/* One above the other at every width: the answers are long in some languages and the card is narrow. */}
      <div className="mt-6 grid gap-3">
        <Button size="lg" disabled={busy} onClick={confirm} data-testid="logout-confirm">
          {busy ? <LoaderCircle aria-hidden="true" className="animate-spin" /> : <LogOut aria-hidden="true" />}
          {t('oauth.logout.confirm')}
        </Button>
        <Button asChild variant="outline" size="lg">
          <Link to="/dashboard" data-testid="logout-cancel" aria-disabled={busy}>
            {t('oauth.logout.cancel')}
          </Link>
        </Button>
      </div>
      {busy && (
        <p role="status" className="mt-4 text-center text-sm text-muted-foreground">
          {t('oauth.logout.signingOut')}
        </p>
      )}
    </LogoutCard>
  );
}

function LogoutCard({ children, testId }: { children: ReactNode; testId: string }) {
  return (
    <div className="mx-auto flex w-full max-w-lg flex-col px-3 py-8 sm:px-4 sm:py-16">
      <div className="rounded-3xl border bg-card p-5 shadow-soft sm:p-8" data-testid={testId}>
        {children}
      </div>
    </div>
  );
}

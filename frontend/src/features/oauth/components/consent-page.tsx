import { useCallback, useEffect, useRef, useState, type ReactNode } from 'react';
import type { ConsentInfo } from '@life/contracts';
import { useRouter } from '@tanstack/react-router';
import { BadgeCheck, Check, ExternalLink, LoaderCircle, LogIn, ShieldCheck, X } from 'lucide-react';
import { Trans, useTranslation } from 'react-i18next';
import { PageStatus } from '@/components/layout/page-status';
import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { applyRequestedLanguage } from '@/i18n/language';
import { apiErrorMessage } from '@/lib/api-client';
import { loginPath } from '@/lib/auth';
import { isFramed } from '@/lib/frame';
import { clearSession, useSession } from '@/lib/session';
import { authorizeParamsOf, useDecideConsent, type ConsentAction } from '../api/decide-consent';
import { useConsentInfo } from '../api/get-consent-info';
import { leavePageFor } from '../utils/leave-page';
import { reportError } from '@/lib/report-error';

/** The admin panel's frame always asks (decision 0025): the server is told so with prompt=consent. */
export function askingSearch(search: string, framed: boolean): string {
  if (!framed) return search;
  const query = new URLSearchParams(search);
  query.set('prompt', 'consent');
  return `?${query.toString()}`;
}

/** Where a sign-in must come back to: this same request, with the server's login ticket when it gave one. */
export function signInReturnTo(pathname: string, search: string, ticket: string | undefined): string {
  if (!ticket) return `${pathname}${search}`;
  const query = new URLSearchParams(search);
  query.set('login_ticket', ticket);
  return `${pathname}?${query.toString()}`;
}

function hostOf(url: string): string | undefined {
  try {
    return new URL(url).host || undefined;
  } catch {
    return undefined;
  }
}

function carriesCode(url: string): boolean {
  try {
    return new URL(url).searchParams.has('code');
  } catch {
    return false;
  }
}

/**
 * Consent screen for third-party apps (`/oauth/authorize`, spec section 2). It reads the request
 * from its own query string and asks the server (`GET /oauth/authorize` as JSON, with the
 * session's bearer token when there is one), which decides everything (decision 0033): an error
 * message shown here (never a redirect, for a bad client or URI); a sign-in first, or again for
 * `prompt=login`/`max_age`, that comes back to this same request; `redirect_to` when it answers
 * without a question (remembered consent unless `prompt=consent`, `prompt=none`, OIDC errors for
 * the app), which the page follows; or the question, Permitir / Denegar. `ui_locales` picks the
 * language for a visitor who has not chosen one.
 *
 * Inside a frame (only the admin panel's Autorizar frames it: `frame-ancestors 'self'`) it always
 * asks, and after the answer it says what happened instead of leaving (decision 0025).
 */
export function ConsentPage() {
  const { t } = useTranslation();
  const router = useRouter();
  // The raw query, read once: the router's parsed copy would turn numeric-looking values into numbers.
  const [{ pathname, search }] = useState(() => ({ pathname: router.history.location.pathname, search: router.history.location.search }));
  const [framed] = useState(isFramed);
  const [asked] = useState(() => askingSearch(search, framed));
  const { isSignedIn } = useSession();
  const consent = useConsentInfo(asked);
  const answer = consent.data;
  const info = answer && !('redirect_to' in answer) ? answer : undefined;
  const redirectTo = answer && 'redirect_to' in answer ? answer.redirect_to : undefined;
  const signIn = info?.sign_in;

  // The app may ask for a language (OIDC ui_locales); a person's own choice wins.
  useEffect(() => {
    void applyRequestedLanguage(new URLSearchParams(search).get('ui_locales'));
  }, [search]);

  useEffect(() => {
    if (consent.error) reportError('Error cargando la solicitud de acceso', consent.error);
  }, [consent.error]);

  // The server answered without a question: go there (once; never from inside the admin's frame).
  const left = useRef(false);
  useEffect(() => {
    if (!redirectTo || framed || left.current) return;
    left.current = true;
    leavePageFor(redirectTo);
  }, [redirectTo, framed]);

  // The server does not know this page's token any more: the page is signed out too.
  useEffect(() => {
    if (signIn && !signIn.again && isSignedIn) clearSession();
  }, [signIn, isSignedIn]);

  if (consent.isPending) return <PageStatus message={t('oauth.loading')} visuallyHidden />;

  if (consent.isError || (redirectTo && framed)) {
    return (
      <ConsentCard testId="consent-error">
        <h1 className="text-xl font-semibold tracking-tight text-foreground sm:text-2xl">{t('oauth.error.title')}</h1>
        <Alert variant="error" className="mt-5" data-testid="consent-error-message">
          {(consent.isError && apiErrorMessage(consent.error)) || t('oauth.error.generic')}
        </Alert>
      </ConsentCard>
    );
  }

  if (redirectTo) {
    return (
      <ConsentCard testId="consent-leaving">
        <p role="status" className="flex items-center gap-2 text-sm font-medium text-muted-foreground" data-testid="consent-redirecting">
          <LoaderCircle aria-hidden="true" className="size-4 animate-spin text-primary" />
          {carriesCode(redirectTo) ? t('oauth.consent.remembered') : t('oauth.consent.returning')}
        </p>
      </ConsentCard>
    );
  }

  if (!info) return <PageStatus message={t('oauth.loading')} visuallyHidden />;
  if (signIn) return <SignInPrompt consent={info} again={signIn.again} returnTo={signInReturnTo(pathname, search, signIn.login_ticket)} />;

  return <SignedInConsent consent={info} search={asked} framed={framed} />;
}

function ConsentCard({ children, testId }: { children: ReactNode; testId: string }) {
  return (
    <div className="mx-auto flex w-full max-w-lg flex-col px-3 py-8 sm:px-4 sm:py-16">
      <div className="rounded-3xl border bg-card p-5 shadow-soft sm:p-8" data-testid={testId}>
        {children}
      </div>
    </div>
  );
}

/**
 * The app's logo when it registered one (https only; loaded straight from the app's server with no
 * referrer, never proxied: decision 0037), else the shield. A logo that fails to load falls back too.
 */
function AppMark({ consent }: { consent: ConsentInfo }) {
  const [failed, setFailed] = useState(false);
  if (consent.logo_uri && !failed) {
    return (
      <img
        src={consent.logo_uri}
        alt=""
        referrerPolicy="no-referrer"
        width={40}
        height={40}
        onError={() => setFailed(true)}
        className="size-10 shrink-0 rounded-xl border bg-card object-contain"
        data-testid="consent-logo"
      />
    );
  }
  return (
    <span className="inline-flex size-10 shrink-0 items-center justify-center rounded-full bg-secondary text-secondary-foreground">
      <ShieldCheck aria-hidden="true" className="size-5" />
    </span>
  );
}

/** Who vouches for the app ("Verificada por Life", or a plain warning) and its own policy links. */
function AppTrust({ consent }: { consent: ConsentInfo }) {
  const { t } = useTranslation();
  const links = [
    consent.policy_uri ? { href: consent.policy_uri, label: t('oauth.consent.trust.policy'), testId: 'consent-policy-link' } : null,
    consent.tos_uri ? { href: consent.tos_uri, label: t('oauth.consent.trust.terms'), testId: 'consent-terms-link' } : null,
  ].filter((link) => link !== null);
  return (
    <div className="mt-3 grid gap-3">
      {consent.verified ? (
        <p
          className="inline-flex w-fit items-center gap-1.5 rounded-full border border-green-200 bg-green-50 px-3 py-1 text-xs font-medium text-green-800"
          data-testid="consent-verified"
        >
          <BadgeCheck aria-hidden="true" className="size-4 shrink-0" />
          {t('oauth.consent.trust.verified')}
        </p>
      ) : (
        <Alert variant="warning" data-testid="consent-unverified">
          <p className="font-semibold">{t('oauth.consent.trust.unverifiedTitle')}</p>
          <p>
            {t(consent.developer_app ? 'oauth.consent.trust.unverifiedPerson' : 'oauth.consent.trust.unverifiedCompany', { client_name: consent.client_name })}
          </p>
        </Alert>
      )}
      {links.length > 0 && (
        <ul className="flex flex-wrap gap-x-4 gap-y-1 text-sm" data-testid="consent-links">
          {links.map((link) => (
            <li key={link.testId}>
              <a
                href={link.href}
                target="_blank"
                rel="noopener noreferrer"
                referrerPolicy="no-referrer"
                className="inline-flex min-h-6 items-center gap-1 font-medium text-primary underline-offset-4 hover:underline"
                data-testid={link.testId}
              >
                {link.label}
                <ExternalLink aria-hidden="true" className="size-3.5" />
                <span className="sr-only">{t('oauth.consent.trust.newTab')}</span>
              </a>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}

function SignInPrompt({ consent, again, returnTo }: { consent: ConsentInfo; again: boolean; returnTo: string }) {
  const { t } = useTranslation();
  // Inside a frame (the admin panel's Autorizar) the identity provider would refuse to load: leave the frame.
  const [target] = useState(() => (isFramed() ? '_top' : undefined));
  return (
    <ConsentCard testId="consent-sign-in">
      <h1 className="text-xl font-semibold tracking-tight text-foreground sm:text-2xl" data-testid="consent-sign-in-title">
        {again ? t('oauth.signIn.againTitle') : t('oauth.signIn.title')}
      </h1>
      <p className="mt-2 text-muted-foreground">
        {again ? t('oauth.signIn.againDescription', { client_name: consent.client_name }) : t('oauth.signIn.description', { client_name: consent.client_name })}
      </p>
      <Button asChild size="lg" className="mt-6 w-full sm:w-auto">
        <a href={loginPath('github', returnTo)} target={target} data-testid="consent-login-github">
          <LogIn aria-hidden="true" />
          {t('oauth.signIn.github')}
        </a>
      </Button>
    </ConsentCard>
  );
}

function SignedInConsent({ consent, search, framed }: { consent: ConsentInfo; search: string; framed: boolean }) {
  const { t } = useTranslation();
  const decide = useDecideConsent();
  const [leaving, setLeaving] = useState(false);
  const [answered, setAnswered] = useState<{ action: ConsentAction; redirectTo: string } | null>(null);

  const { mutate } = decide;
  const submit = useCallback(
    (action: ConsentAction) => {
      mutate(
        { params: authorizeParamsOf(search), action },
        {
          // A GET to where the server says (never a second POST); the button stays busy while the page leaves.
          onSuccess: ({ redirect_to }, { action: given }) => {
            if (framed) {
              setAnswered({ action: given, redirectTo: redirect_to });
              return;
            }
            setLeaving(true);
            leavePageFor(redirect_to);
          },
        },
      );
    },
    [mutate, search, framed],
  );

  const answer = (action: ConsentAction) => submit(action);

  if (answered) return <FramedOutcome consent={consent} action={answered.action} redirectTo={answered.redirectTo} />;

  const host = hostOf(consent.redirect_uri);
  const errorMessage = decide.isError ? t('oauth.consent.decisionError', { message: apiErrorMessage(decide.error) ?? t('oauth.consent.tryAgain') }) : null;
  const busy = decide.isPending || leaving;

  return (
    <ConsentCard testId="consent-request">
      <div className="flex items-center gap-3">
        <AppMark consent={consent} />
        <h1 className="text-xl font-semibold tracking-tight text-foreground sm:text-2xl">{t('oauth.consent.title')}</h1>
      </div>
      <p className="mt-5 text-foreground" data-testid="consent-request-text">
        <Trans i18nKey="oauth.consent.request" values={{ client_name: consent.client_name }} components={{ strong: <strong className="font-semibold" /> }} />
      </p>
      <AppTrust consent={consent} />
      {consent.scopes.length > 0 ? (
        <ul className="mt-3 grid gap-2" data-testid="consent-scopes">
          {consent.scopes.map((entry) => (
            <li key={entry.scope} data-scope={entry.scope} className="flex items-start gap-2.5 rounded-2xl bg-muted/60 px-4 py-3 text-sm text-foreground">
              <Check aria-hidden="true" className="mt-0.5 size-4 shrink-0 text-primary" />
              <span className="min-w-0 break-words">{entry.description}</span>
            </li>
          ))}
        </ul>
      ) : (
        <p className="mt-3 rounded-2xl bg-muted/60 px-4 py-3 text-sm text-muted-foreground" data-testid="consent-no-scopes">
          {t('oauth.consent.noScopes')}
        </p>
      )}
      {framed ? (
        <p className="mt-4 text-sm break-words text-muted-foreground" data-testid="consent-framed-note">
          {t('oauth.consent.framedNote', { client_name: consent.client_name })}
        </p>
      ) : (
        host && <p className="mt-4 text-sm break-words text-muted-foreground">{t('oauth.consent.returnTo', { host })}</p>
      )}

      {errorMessage && (
        <Alert variant="error" className="mt-5" data-testid="consent-decision-error">
          {errorMessage}
        </Alert>
      )}

      <div className="mt-6 flex flex-col-reverse gap-3 sm:flex-row sm:justify-end">
        <Button variant="outline" size="lg" disabled={busy} onClick={() => answer('deny')} data-testid="consent-deny">
          {decide.isPending && decide.variables.action === 'deny' ? <LoaderCircle aria-hidden="true" className="animate-spin" /> : <X aria-hidden="true" />}
          {t('oauth.consent.deny')}
        </Button>
        <Button size="lg" disabled={busy} onClick={() => answer('allow')} data-testid="consent-allow">
          {decide.isPending && decide.variables.action === 'allow' ? (
            <LoaderCircle aria-hidden="true" className="animate-spin" />
          ) : (
            <Check aria-hidden="true" />
          )}
          {t('oauth.consent.allow')}
        </Button>
      </div>
      {leaving && (
        <p role="status" className="mt-4 text-center text-sm text-muted-foreground sm:text-right" data-testid="consent-redirecting">
          {t('oauth.consent.redirecting')}
        </p>
      )}
    </ConsentCard>
  );
}

/**
 * The answer given inside the admin panel's Autorizar frame: what was granted (or that nothing
 * was), where the app would have received it, and where to take it back. The page does not go
 * to the app's redirect URI (decision 0025).
 */
function FramedOutcome({ consent, action, redirectTo }: { consent: ConsentInfo; action: ConsentAction; redirectTo: string }) {
  const { t } = useTranslation();
  const allowed = action === 'allow';
  const host = hostOf(redirectTo);
  return (
    <ConsentCard testId="consent-outcome">
      <div className="flex items-center gap-3" role="status">
        <span
          className={`inline-flex size-10 shrink-0 items-center justify-center rounded-full ${allowed ? 'bg-green-100 text-green-800' : 'bg-secondary text-secondary-foreground'}`}
        >
          {allowed ? <Check aria-hidden="true" className="size-5" /> : <X aria-hidden="true" className="size-5" />}
        </span>
        <h1 className="text-xl font-semibold tracking-tight text-foreground sm:text-2xl" data-testid="consent-outcome-title">
          {allowed ? t('oauth.outcome.allowedTitle') : t('oauth.outcome.deniedTitle')}
        </h1>
      </div>
      <p className="mt-5 text-foreground" data-testid="consent-outcome-text">
        {allowed ? t('oauth.outcome.allowed', { client_name: consent.client_name }) : t('oauth.outcome.denied', { client_name: consent.client_name })}
      </p>
      {allowed && consent.scopes.length > 0 && (
        <ul className="mt-3 grid gap-2" data-testid="consent-outcome-scopes">
          {consent.scopes.map((entry) => (
            <li key={entry.scope} className="flex items-start gap-2.5 rounded-2xl bg-muted/60 px-4 py-3 text-sm text-foreground">
              <Check aria-hidden="true" className="mt-0.5 size-4 shrink-0 text-primary" />
              <span className="min-w-0 break-words">{entry.description}</span>
            </li>
          ))}
        </ul>
      )}
      {host && (
        <p className="mt-4 text-sm break-words text-muted-foreground" data-testid="consent-outcome-redirect">
          {t('oauth.outcome.notFollowed', { host })}
        </p>
      )}
      {allowed && <p className="mt-2 text-sm break-words text-muted-foreground">{t('oauth.outcome.revokeHint')}</p>}
    </ConsentCard>
  );
}

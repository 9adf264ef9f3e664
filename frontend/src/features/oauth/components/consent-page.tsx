import { useCallback, useEffect, useRef, useState, type ReactNode } from 'react';
import type { AppGrant, ConsentInfo } from '@life/contracts';
import { useQuery } from '@tanstack/react-query';
import { useRouter } from '@tanstack/react-router';
import { BadgeCheck, Check, ExternalLink, LoaderCircle, LogIn, ShieldCheck, X } from 'lucide-react';
import { Trans, useTranslation } from 'react-i18next';
import { PageStatus } from '@/components/layout/page-status';
import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { applyRequestedLanguage } from '@/i18n/language';
import { ApiError, apiErrorMessage } from '@/lib/api-client';
import { APP_GRANTS_QUERY_KEY, getAppGrants } from '@/lib/app-grants';
import { loginPath } from '@/lib/auth';
import { isFramed } from '@/lib/frame';
import { clearSession, useSession } from '@/lib/session';
import { authorizeParamsOf, useDecideConsent, type ConsentAction } from '../api/decide-consent';
import { useConsentInfo } from '../api/get-consent-info';
import { leavePageFor } from '../utils/leave-page';
import { reportError } from '@/lib/report-error';

/** `prompt=consent` asks for the question even when the person already said yes. */
function forcesConsent(search: string): boolean {
  const prompt = new URLSearchParams(search).get('prompt');
  return !!prompt && prompt.split(' ').includes('consent');
}

/** A remembered yes: a grant for this app that already covers every requested scope. */
export function coversRequest(grants: readonly AppGrant[], consent: ConsentInfo): boolean {
  const requested = consent.scopes.map((entry) => entry.scope);
  return grants.some((grant) => {
    if (grant.client_id !== consent.client_id) return false;
    const granted = new Set(grant.scopes.map((entry) => entry.scope));
    return requested.every((scope) => granted.has(scope));
  });
}

function hostOf(url: string): string | undefined {
  try {
    return new URL(url).host || undefined;
  } catch {
    return undefined;
  }
}

/**
 * Consent screen for third-party apps (`/oauth/authorize`, spec section 2). It reads the request
 * from its own query string; the server checks it (`GET /oauth/authorize` as JSON, no bearer)
 * and its error message is shown here, never a redirect. Signed out, it offers GitHub sign-in
 * that comes back to this same request; signed in, Permitir / Denegar, or an automatic yes
 * when a grant already covers the request (unless `prompt=consent`). `ui_locales` picks the
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
  const { isSignedIn } = useSession();
  const consent = useConsentInfo(search);

  // The app may ask for a language (OIDC ui_locales); a person's own choice wins.
  useEffect(() => {
    void applyRequestedLanguage(new URLSearchParams(search).get('ui_locales'));
  }, [search]);

  useEffect(() => {
    if (consent.error) reportError('Error cargando la solicitud de acceso', consent.error);
  }, [consent.error]);

  if (consent.isPending) return <PageStatus message={t('oauth.loading')} visuallyHidden />;

  if (consent.isError) {
    return (
      <ConsentCard testId="consent-error">
        <h1 className="text-xl font-semibold tracking-tight text-foreground sm:text-2xl">{t('oauth.error.title')}</h1>
        <Alert variant="error" className="mt-5" data-testid="consent-error-message">
          {apiErrorMessage(consent.error) ?? t('oauth.error.generic')}
        </Alert>
      </ConsentCard>
    );
  }

  if (!isSignedIn) return <SignInPrompt consent={consent.data} returnTo={`${pathname}${search}`} />;

  return <SignedInConsent consent={consent.data} search={search} />;
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

function SignInPrompt({ consent, returnTo }: { consent: ConsentInfo; returnTo: string }) {
  const { t } = useTranslation();
  // Inside a frame (the admin panel's Autorizar) the identity provider would refuse to load: leave the frame.
  const [target] = useState(() => (isFramed() ? '_top' : undefined));
  return (
    <ConsentCard testId="consent-sign-in">
      <h1 className="text-xl font-semibold tracking-tight text-foreground sm:text-2xl">{t('oauth.signIn.title')}</h1>
      <p className="mt-2 text-muted-foreground">{t('oauth.signIn.description', { client_name: consent.client_name })}</p>
      <Button asChild size="lg" className="mt-6 w-full sm:w-auto">
        <a href={loginPath('github', returnTo)} target={target} data-testid="consent-login-github">
          <LogIn aria-hidden="true" />
          {t('oauth.signIn.github')}
        </a>
      </Button>
    </ConsentCard>
  );
}

function SignedInConsent({ consent, search }: { consent: ConsentInfo; search: string }) {
  const { t } = useTranslation();
  // Framed (the admin panel's Autorizar): never the automatic yes, and the answer stays in the frame.
  const [framed] = useState(isFramed);
  const [forced] = useState(() => framed || forcesConsent(search));
  const decide = useDecideConsent();
  const [leaving, setLeaving] = useState(false);
  const [answered, setAnswered] = useState<{ action: ConsentAction; redirectTo: string } | null>(null);
  /** Set by Permitir/Denegar: the grants refreshed after it must not turn the page into the automatic yes. */
  const [answeredByHand, setAnsweredByHand] = useState(false);
  const autoAllowStarted = useRef(false);

  // Not needed when the question is asked anyway. A 401 signs out here (the page then asks to sign in).
  const grants = useQuery({
    queryKey: [...APP_GRANTS_QUERY_KEY, 'consent'],
    queryFn: async ({ signal }) => {
      try {
        return await getAppGrants({ signal, ignoreUnauthorized: true });
      } catch (error) {
        if (error instanceof ApiError && error.status === 401) clearSession();
        throw error;
      }
    },
    enabled: !forced,
    staleTime: 0,
  });
  const remembered = !forced && !!grants.data && coversRequest(grants.data, consent);

  const { mutate } = decide;
  const submit = useCallback(
    (action: ConsentAction) => {
      // One answer per page: allowing refreshes the grants, which must not trigger the automatic yes again.
      autoAllowStarted.current = true;
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

  useEffect(() => {
    // Once per page, even when StrictMode runs effects twice.
    if (!remembered || answeredByHand || autoAllowStarted.current) return;
    submit('allow');
  }, [remembered, answeredByHand, submit]);

  const answer = (action: ConsentAction) => {
    setAnsweredByHand(true);
    submit(action);
  };

  // Waiting for the grants decides between the question and the automatic yes: no buttons flash by.
  if (!forced && grants.isPending) return <PageStatus message={t('oauth.loading')} visuallyHidden />;

  if (answered) return <FramedOutcome consent={consent} action={answered.action} redirectTo={answered.redirectTo} />;

  const autoAllowing = remembered && !answeredByHand && !decide.isError;
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

      {autoAllowing ? (
        <p role="status" className="mt-6 flex items-center gap-2 text-sm font-medium text-muted-foreground" data-testid="consent-redirecting">
          <LoaderCircle aria-hidden="true" className="size-4 animate-spin text-primary" />
          {t('oauth.consent.remembered')}
        </p>
      ) : (
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
      )}
      {leaving && !autoAllowing && (
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

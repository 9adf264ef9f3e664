import type { ReactNode } from 'react';
import { useNavigate, useSearch } from '@tanstack/react-router';
import { useTranslation } from 'react-i18next';
import { isSitePath } from '@/lib/auth';
import { useSession } from '@/lib/session';
import { LoginErrorBanner } from './login-error-banner';
import { AccountErasedNotice, SignInRequiredNotice } from './landing-notices';
import { ServicesCarousel } from './services-carousel';

export interface LandingPageProps {
  /** The editions block under the services carousel (billing's, plugged in by the `/` route). */
  editions?: ReactNode;
  /** A word at the top of the page (billing's, after a cancelled checkout), plugged in by the `/` route. */
  notice?: ReactNode;
}

export function LandingPage({ editions, notice }: LandingPageProps) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const search = useSearch({ strict: false });
  const loginError = typeof search.login_error === 'string' && search.login_error ? search.login_error : undefined;

  // The router keeps query values its validateSearch left out: check again that `next` is a path on this site.
  const next = isSitePath(search.next) ? search.next : undefined;
  // Signed in meanwhile (another tab): the page asked for is open to them now, so no notice.
  const { isSignedIn } = useSession();
  const erased = search.notice === 'account_erased';

  function dismiss(param: 'login_error' | 'next' | 'notice') {
    void navigate({ to: '.', search: ({ [param]: _dismissed, ...rest }) => rest, replace: true });
  }

  return (
    <div className="overflow-x-clip">
      {(loginError || (next && !isSignedIn) || erased) && (
        // Above the hero, whose decorative glow reaches up over this spot.
        <div className="relative z-10 mx-auto grid max-w-3xl gap-3 px-4 pt-6 sm:px-6">
          {erased && <AccountErasedNotice onDismiss={() => dismiss('notice')} />}
          {loginError && <LoginErrorBanner code={loginError} onDismiss={() => dismiss('login_error')} />}
          {next && !loginError && !isSignedIn && <SignInRequiredNotice onDismiss={() => dismiss('next')} />}
        </div>
      )}
      {notice && <div className="relative z-10 mx-auto max-w-3xl px-4 pt-6 sm:px-6">{notice}</div>}
      <section className="relative isolate px-4 pt-16 pb-8 sm:px-6 sm:pt-24">
        <div
          aria-hidden="true"
          className="pointer-events-none absolute inset-x-0 -top-24 -z-10 mx-auto h-[420px] max-w-4xl rounded-full bg-[radial-gradient(closest-side,rgb(99_102_241/0.18),transparent),radial-gradient(closest-side,rgb(249_115_98/0.14),transparent)] bg-[length:60%_100%,55%_90%] bg-[position:10%_0,90%_30%] bg-no-repeat blur-2xl"
        />
        <div className="mx-auto max-w-3xl text-center">
          <h1 className="text-4xl leading-[1.1] font-bold tracking-tight text-balance text-foreground sm:text-6xl">{t('landing.headline')}</h1>
          <p className="mx-auto mt-5 max-w-2xl text-lg leading-relaxed text-pretty text-muted-foreground">{t('landing.intro')}</p>
        </div>
      </section>
      <ServicesCarousel />
      {editions}
    </div>
  );
}

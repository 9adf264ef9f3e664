import { useEffect } from 'react';
import { LOGIN_PROVIDERS, type LoginProviderName } from '@life/contracts';
import { LogIn } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { Button } from '@/components/ui/button';
import { Dialog, DialogContent, DialogDescription, DialogHeader, DialogTitle, DialogTrigger } from '@/components/ui/dialog';
import { startLogin } from '@/lib/auth';
import { setLoginDialogOpen, useLoginDialogOpen } from '@/lib/login-dialog';

/** Brand names are proper nouns, shown as-is in every language. */
const PROVIDER_LABELS: Record<LoginProviderName, string> = {
  github: 'GitHub',
  google: 'Google',
  microsoft: 'Microsoft',
  apple: 'Apple',
};

/** A neutral coloured initial per provider (we do not ship the real trademark logos). */
const PROVIDER_MARK_COLORS: Record<LoginProviderName, string> = {
  github: 'bg-[#24292f]',
  google: 'bg-[#4285f4]',
  microsoft: 'bg-[#00a4ef]',
  apple: 'bg-[#1d1d1f]',
};

/** Open and closed through `@/lib/login-dialog`, so other pages can open it too (`openLoginDialog`). */
export function LoginDialog() {
  const { t } = useTranslation();
  const open = useLoginDialogOpen();
  // Signing in unmounts the dialog: it must not come back open after a later logout.
  useEffect(() => () => setLoginDialogOpen(false), []);
  return (
    <Dialog open={open} onOpenChange={setLoginDialogOpen}>
      <DialogTrigger asChild>
        <Button size="sm" data-testid="login-button">
          <LogIn aria-hidden="true" />
          {t('header.login')}
        </Button>
      </DialogTrigger>
      <DialogContent data-testid="login-dialog">
        <DialogHeader>
          <DialogTitle>{t('loginDialog.title')}</DialogTitle>
          <DialogDescription>{t('loginDialog.description')}</DialogDescription>
        </DialogHeader>
        <div className="grid gap-3">
          {LOGIN_PROVIDERS.map((provider) => (
            <Button
              key={provider}
              variant="outline"
              size="lg"
              className="justify-start rounded-2xl"
              data-testid={`login-provider-${provider}`}
              onClick={() => startLogin(provider)}
            >
              <span
                aria-hidden="true"
                className={`inline-flex size-7 items-center justify-center rounded-full text-xs font-bold text-white ${PROVIDER_MARK_COLORS[provider]}`}
              >
                {PROVIDER_LABELS[provider].charAt(0)}
              </span>
              {PROVIDER_LABELS[provider]}
            </Button>
          ))}
        </div>
      </DialogContent>
    </Dialog>
  );
}

import { useEffect } from 'react';
import { LogIn } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { Button } from '@/components/ui/button';
import { setLoginDialogOpen, useLoginDialogOpen } from '@/lib/login-dialog';
import { LazyOverlay, LoginProvidersDialog, useOverlayTrigger } from './header-overlays-loader';

/**
 * The Login button. Open and closed through `@/lib/login-dialog`, so other pages can open it too
 * (`openLoginDialog`); the providers' dialog (header-overlays.tsx) is loaded after the first paint.
 */
export function LoginDialog() {
  const { t } = useTranslation();
  const open = useLoginDialogOpen();
  const { mounted, contentId, triggerProps } = useOverlayTrigger(open);
  // Signing in unmounts the dialog: it must not come back open after a later logout.
  useEffect(() => () => setLoginDialogOpen(false), []);
  return (
    <>
      <Button size="sm" data-testid="login-button" {...triggerProps} onClick={() => setLoginDialogOpen(!open)}>
        <LogIn aria-hidden="true" />
        {t('header.login')}
      </Button>
      {mounted && (
        <LazyOverlay>
          <LoginProvidersDialog open={open} onOpenChange={setLoginDialogOpen} contentId={contentId} />
        </LazyOverlay>
      )}
    </>
  );
}

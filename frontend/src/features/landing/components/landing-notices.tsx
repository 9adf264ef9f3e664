import { LogIn, X } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { openLoginDialog } from '@/lib/login-dialog';

function DismissButton({ onDismiss, testId }: { onDismiss: () => void; testId: string }) {
  const { t } = useTranslation();
  return (
    <button
      type="button"
      onClick={onDismiss}
      aria-label={t('landing.notice.dismiss')}
      data-testid={testId}
      className="-my-1 -mr-2 inline-flex size-8 shrink-0 cursor-pointer items-center justify-center rounded-full transition-colors hover:bg-black/5"
    >
      <X aria-hidden="true" className="size-4" />
    </button>
  );
}

/** After erasing the account (`/?notice=account_erased`): the person is signed out, and told what happens now. */
export function AccountErasedNotice({ onDismiss }: { onDismiss: () => void }) {
  const { t } = useTranslation();
  return (
    <Alert
      variant="success"
      data-testid="account-erased-notice"
      className="shadow-soft"
      action={<DismissButton onDismiss={onDismiss} testId="account-erased-dismiss" />}
    >
      <p className="font-medium">{t('landing.notice.accountErased')}</p>
    </Alert>
  );
}

/**
 * A signed-out visitor who opened a signed-in page (`/?next=/dashboard`): why they are here, and a
 * way to sign in that comes back to that page (the login dialog reads `next`).
 */
export function SignInRequiredNotice({ onDismiss }: { onDismiss: () => void }) {
  const { t } = useTranslation();
  return (
    <Alert
      variant="warning"
      data-testid="sign-in-required"
      className="shadow-soft"
      action={<DismissButton onDismiss={onDismiss} testId="sign-in-required-dismiss" />}
    >
      <p className="font-medium">{t('landing.notice.signInRequired')}</p>
      <Button size="sm" className="mt-2" onClick={openLoginDialog} data-testid="sign-in-required-login">
        <LogIn aria-hidden="true" />
        {t('landing.notice.signIn')}
      </Button>
    </Alert>
  );
}

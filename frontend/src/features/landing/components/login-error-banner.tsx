import type { LoginErrorCode } from '@life/contracts';
import { X } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { Alert } from '@/components/ui/alert';

/** Codes with their own explanation; anything else gets the generic one. */
const MESSAGE_KEYS: Partial<Record<LoginErrorCode | 'unknown_provider', string>> = {
  not_invited: 'loginError.not_invited',
  unverified_email: 'loginError.unverified_email',
  invalid_state: 'loginError.invalid_state',
  provider_unavailable: 'loginError.provider_unavailable',
  unknown_provider: 'loginError.provider_unavailable',
};

export function loginErrorMessageKey(code: string): string {
  return Object.hasOwn(MESSAGE_KEYS, code) ? MESSAGE_KEYS[code as keyof typeof MESSAGE_KEYS]! : 'loginError.generic';
}

export interface LoginErrorBannerProps {
  /** The `login_error` query parameter. */
  code: string;
  onDismiss: () => void;
}

/** Explains on the landing page why a sign-in did not work (`/?login_error=<code>`). */
export function LoginErrorBanner({ code, onDismiss }: LoginErrorBannerProps) {
  const { t } = useTranslation();
  return (
    <Alert
      variant="error"
      role="alert"
      data-testid="login-error"
      data-code={code}
      className="shadow-soft"
      action={
        <button
          type="button"
          onClick={onDismiss}
          aria-label={t('loginError.dismiss')}
          data-testid="login-error-dismiss"
          className="-my-1 -mr-2 inline-flex size-8 shrink-0 cursor-pointer items-center justify-center rounded-full transition-colors hover:bg-destructive/10"
        >
          <X aria-hidden="true" className="size-4" />
        </button>
      }
    >
      <p className="font-medium">{t(loginErrorMessageKey(code))}</p>
    </Alert>
  );
}

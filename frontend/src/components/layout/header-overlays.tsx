import { useState } from 'react';
import { Link, useSearch } from '@tanstack/react-router';
import { LOGIN_PROVIDERS, type LoginProviderName } from '@life/contracts';
import { Check, House, LayoutDashboard, Search, Sunrise, UserRound, type LucideIcon } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { Flag } from '@/components/flags/flag';
import { Button } from '@/components/ui/button';
import { Dialog, DialogContent, DialogDescription, DialogHeader, DialogTitle } from '@/components/ui/dialog';
import { Input } from '@/components/ui/input';
import { Sheet, SheetContent, SheetTitle } from '@/components/ui/sheet';
import { countryLabels, filterCountries, type CountryCode } from '@/i18n/countries';
import { startLogin } from '@/lib/auth';
import { cn } from '@/lib/utils';

/*
 * The header's dialogs and side menu, without their buttons: loaded when the page is idle after
 * its first paint, or at once on the first hover, focus or press of a button (issue 15). The
 * buttons live in the header (country-picker.tsx, login-dialog.tsx, side-menu.tsx) and own the
 * open state; these are controlled, and give the focus back to whatever opened them
 * (`useFocusReturn` in DialogContent and SheetContent).
 */

export interface OverlayProps {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  /** The id the button's `aria-controls` names. */
  contentId: string;
}

export interface CountryPickerDialogProps extends OverlayProps {
  current: CountryCode;
  onChoose: (code: CountryCode) => void;
}

export function CountryPickerDialog({ open, onOpenChange, contentId, current, onChoose }: CountryPickerDialogProps) {
  const { t, i18n } = useTranslation();
  const [query, setQuery] = useState('');
  const results = filterCountries(query);

  function handleOpenChange(next: boolean) {
    if (!next) setQuery('');
    onOpenChange(next);
  }

  function choose(code: CountryCode) {
    setQuery('');
    onChoose(code);
  }

  return (
    <Dialog open={open} onOpenChange={handleOpenChange}>
      <DialogContent id={contentId} data-testid="country-picker" className="gap-4">
        <DialogHeader>
          <DialogTitle>{t('countryPicker.title')}</DialogTitle>
          <DialogDescription>{t('countryPicker.description')}</DialogDescription>
        </DialogHeader>
        <div className="relative">
          <Search aria-hidden="true" className="pointer-events-none absolute top-1/2 left-3.5 size-4 -translate-y-1/2 text-muted-foreground" />
          <Input
            type="search"
            autoComplete="off"
            aria-label={t('countryPicker.searchPlaceholder')}
            placeholder={t('countryPicker.searchPlaceholder')}
            value={query}
            onChange={(event) => setQuery(event.target.value)}
            className="pl-10"
            data-testid="country-search"
          />
        </div>
        {/* Fixed height, so the dialog does not jump while the list shrinks. */}
        <div className="-mx-2 h-[min(22rem,50dvh)] overflow-y-auto px-2">
          {results.length === 0 ? (
            <p className="py-6 text-center text-sm text-muted-foreground" role="status">
              {t('countryPicker.empty')}
            </p>
          ) : (
            <ul className="grid gap-1" data-testid="country-list">
              {results.map((country) => {
                const names = countryLabels(country, i18n.language);
                const selected = country.code === current;
                return (
                  <li key={country.code}>
                    <button
                      type="button"
                      data-testid={`country-option-${country.code}`}
                      aria-current={selected ? 'true' : undefined}
                      onClick={() => choose(country.code)}
                      className={cn(
                        'flex w-full cursor-pointer items-center gap-3 rounded-xl px-3 py-2.5 text-left transition-colors hover:bg-muted focus-visible:bg-muted',
                        selected && 'bg-secondary hover:bg-secondary',
                      )}
                    >
                      <Flag code={country.code} className="h-5 w-[30px]" />
                      <span className="flex min-w-0 flex-1 flex-col">
                        <span className="truncate text-sm font-medium text-foreground">{names.name}</span>
                        <span className="truncate text-xs text-muted-foreground">
                          {names.language}
                          {names.nativeLanguage !== names.language && (
                            <>
                              {' · '}
                              <span lang={country.locale}>{names.nativeLanguage}</span>
                            </>
                          )}
                        </span>
                      </span>
                      {selected && <Check aria-label={t('countryPicker.selected')} className="size-4 text-primary" />}
                    </button>
                  </li>
                );
              })}
            </ul>
          )}
        </div>
      </DialogContent>
    </Dialog>
  );
}

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

export function LoginProvidersDialog({ open, onOpenChange, contentId }: OverlayProps) {
  const { t } = useTranslation();
  // A signed-out visitor sent home from a signed-in page (`/?next=/dashboard`) goes back there after signing in.
  const next = useSearch({ strict: false }).next;
  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogContent id={contentId} data-testid="login-dialog">
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
              onClick={() => startLogin(provider, next)}
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

type MenuPath = '/' | '/dashboard' | '/today' | '/profile';

const MENU_ITEMS: { to: MenuPath; labelKey: string; icon: LucideIcon }[] = [
  { to: '/', labelKey: 'sideMenu.home', icon: House },
  { to: '/dashboard', labelKey: 'sideMenu.dashboard', icon: LayoutDashboard },
  { to: '/today', labelKey: 'sideMenu.today', icon: Sunrise },
  { to: '/profile', labelKey: 'sideMenu.profile', icon: UserRound },
];

/** The left sheet (220 px) with the signed-in user's pages. */
export function SideMenuSheet({ open, onOpenChange, contentId }: OverlayProps) {
  const { t } = useTranslation();
  return (
    <Sheet open={open} onOpenChange={onOpenChange}>
      <SheetContent id={contentId} className="w-[220px]" data-testid="side-menu" aria-describedby={undefined}>
        <SheetTitle className="px-5 pt-5 pb-3 text-xs font-semibold tracking-widest text-muted-foreground uppercase">{t('sideMenu.title')}</SheetTitle>
        <nav className="px-3">
          <ul className="grid gap-1">
            {MENU_ITEMS.map(({ to, labelKey, icon: Icon }) => (
              <li key={to}>
                <Link
                  to={to}
                  onClick={() => onOpenChange(false)}
                  activeOptions={{ exact: true }}
                  className="flex items-center gap-3 rounded-xl px-3 py-2.5 text-sm font-medium text-foreground transition-colors hover:bg-muted data-[status=active]:bg-secondary data-[status=active]:text-secondary-foreground"
                >
                  <Icon aria-hidden="true" className="size-4" />
                  {t(labelKey)}
                </Link>
              </li>
            ))}
          </ul>
        </nav>
      </SheetContent>
    </Sheet>
  );
}

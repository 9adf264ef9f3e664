import { useState } from 'react';
import { Check, Search } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { Flag } from '@/components/flags/flag';
import { Button } from '@/components/ui/button';
import { Dialog, DialogContent, DialogDescription, DialogHeader, DialogTitle, DialogTrigger } from '@/components/ui/dialog';
import { Input } from '@/components/ui/input';
import { Tooltip } from '@/components/ui/tooltip';
import { countryLabels, filterCountries, findCountry, type CountryCode } from '@/i18n/countries';
import { selectCountry, useCountry } from '@/i18n/language';
import { cn } from '@/lib/utils';

export function CountryPicker() {
  const { t, i18n } = useTranslation();
  const current = useCountry();
  const [open, setOpen] = useState(false);
  // The flag's hint never shows while the picker is open: otherwise it is the top layer and the
  // first Escape closes the hint instead of the picker (and the hint can outlive the choice).
  const [hint, setHint] = useState(false);
  const [query, setQuery] = useState('');
  const results = filterCountries(query);

  function handleOpenChange(next: boolean) {
    setOpen(next);
    setHint(false);
    if (!next) setQuery('');
  }

  function choose(code: CountryCode) {
    void selectCountry(code);
    handleOpenChange(false);
  }

  const currentName = countryLabels(findCountry(current), i18n.language).name;

  return (
    <Dialog open={open} onOpenChange={handleOpenChange}>
      <Tooltip content={t('header.currentCountry', { country: currentName })} open={hint && !open} onOpenChange={setHint}>
        <DialogTrigger asChild>
          <Button variant="ghost" size="icon" aria-label={t('header.changeLanguage')} data-testid="language-button" data-country={current}>
            <Flag code={current} className="h-[18px] w-[27px]" />
          </Button>
        </DialogTrigger>
      </Tooltip>
      <DialogContent data-testid="country-picker" className="gap-4">
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

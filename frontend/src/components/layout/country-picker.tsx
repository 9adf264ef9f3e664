import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Flag } from '@/components/flags/flag';
import { Button } from '@/components/ui/button';
import { LazyTooltip } from '@/components/ui/lazy-tooltip';
import { countryLabels, findCountry, type CountryCode } from '@/i18n/countries';
import { selectCountry, useCountry } from '@/i18n/language';
import { CountryPickerDialog, LazyOverlay, useOverlayTrigger } from './header-overlays-loader';

/** The flag button; its dialog (header-overlays.tsx) is loaded after the first paint. */
export function CountryPicker() {
  const { t, i18n } = useTranslation();
  const current = useCountry();
  const [open, setOpen] = useState(false);
  // The flag's hint never shows while the picker is open: otherwise it is the top layer and the
  // first Escape closes the hint instead of the picker (and the hint can outlive the choice).
  const [hint, setHint] = useState(false);
  // Closing the picker gives the focus back to the flag, under the pointer that chose: that is
  // not a request for the hint, so it stays hidden until the pointer or the focus leaves the flag.
  const [hintHeld, setHintHeld] = useState(false);
  const { mounted, contentId, triggerProps } = useOverlayTrigger(open);

  function handleOpenChange(next: boolean) {
    setOpen(next);
    setHint(false);
    if (!next) setHintHeld(true);
  }

  const releaseHint = () => setHintHeld(false);

  function choose(code: CountryCode) {
    void selectCountry(code);
    handleOpenChange(false);
  }

  const currentName = countryLabels(findCountry(current), i18n.language).name;

  return (
    <>
      <LazyTooltip
        content={t('header.currentCountry', { country: currentName })}
        open={hint && !open && !hintHeld}
        onOpenChange={(next) => setHint(next && !hintHeld)}
      >
        <Button
          variant="ghost"
          size="icon"
          aria-label={t('header.changeLanguage')}
          data-testid="language-button"
          data-country={current}
          {...triggerProps}
          onPointerLeave={releaseHint}
          onBlur={releaseHint}
          onClick={() => handleOpenChange(!open)}
        >
          <Flag code={current} className="h-[18px] w-[27px]" />
        </Button>
      </LazyTooltip>
      {mounted && (
        <LazyOverlay>
          <CountryPickerDialog open={open} onOpenChange={handleOpenChange} contentId={contentId} current={current} onChoose={choose} />
        </LazyOverlay>
      )}
    </>
  );
}

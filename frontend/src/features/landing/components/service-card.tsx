import { useState } from 'react';
import { RotateCw } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { isTouchDevice } from '@/lib/device';
import { cn } from '@/lib/utils';
import { USES_PER_SERVICE, type LandingService } from '../data/services';

/** Seconds between one card's fade-in and the next (spec: 0.2 s × position). */
export const CARD_STAGGER_SECONDS = 0.2;

/** `0.6s` for the fourth card; rounded so floating point noise (0.6000000000000001) stays out of the DOM. */
export function staggerDelay(index: number): string {
  return `${Math.round(index * CARD_STAGGER_SECONDS * 100) / 100}s`;
}

/** Whether the element got the focus from the keyboard (`:focus-visible`), not from a tap or a click. */
function focusedByKeyboard(element: HTMLElement): boolean {
  try {
    return element.matches(':focus-visible');
  } catch {
    return false;
  }
}

/**
 * A landing card with a back side listing the service's main uses. On touch devices a
 * tap flips it (and another tap flips it back); elsewhere a click does nothing and the
 * back side shows on hover instead (CSS `hover:` only applies where hovering is possible).
 * Each card is also a Tab stop: focused from the keyboard it shows its back, so the uses
 * are reachable without a pointer (screen readers read both sides).
 */
export function ServiceCard({ service, index }: { service: LandingService; index: number }) {
  const { t } = useTranslation();
  const [flipped, setFlipped] = useState(false);
  const [keyboardFocus, setKeyboardFocus] = useState(false);
  const showingBack = flipped || keyboardFocus;
  const { Illustration } = service;

  function handleTap() {
    if (isTouchDevice()) setFlipped((value) => !value);
  }

  return (
    <li
      data-testid="service-card"
      data-service={service.id}
      data-flipped={flipped ? 'true' : 'false'}
      data-showing={showingBack ? 'back' : 'front'}
      onClick={handleTap}
      style={{ animationDelay: staggerDelay(index) }}
      className="group h-[360px] w-[280px] shrink-0 snap-start animate-fade-in-up perspective-[1200px]"
    >
      <div
        role="group"
        aria-label={service.name}
        tabIndex={0}
        data-testid="service-card-face"
        onFocus={(event) => setKeyboardFocus(focusedByKeyboard(event.currentTarget))}
        onBlur={() => setKeyboardFocus(false)}
        className={cn(
          'relative size-full rounded-3xl transition-transform duration-500 ease-out transform-3d focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-ring',
          showingBack ? 'rotate-y-180' : 'group-hover:rotate-y-180',
        )}
      >
        <article className="absolute inset-0 flex flex-col overflow-hidden rounded-3xl border bg-card shadow-soft backface-hidden">
          <div className="h-[168px] shrink-0 overflow-hidden">
            <Illustration />
          </div>
          <div className="flex flex-1 flex-col gap-2 p-6">
            <h3 className="text-lg font-semibold tracking-tight text-foreground">{service.name}</h3>
            <p className="text-sm leading-relaxed text-muted-foreground">{t(`landing.services.${service.id}.description`)}</p>
            <p className="mt-auto flex items-center gap-1.5 text-xs font-medium text-primary">
              <RotateCw aria-hidden="true" className="size-3.5" />
              {t('landing.flipHint')}
            </p>
          </div>
        </article>
        <div
          className="absolute inset-0 flex rotate-y-180 flex-col rounded-3xl bg-linear-to-br from-primary to-[#7c3aed] p-6 text-primary-foreground shadow-lift backface-hidden"
          data-testid="service-card-back"
        >
          <p className="text-xs font-semibold tracking-widest text-white/70 uppercase">{service.name}</p>
          <h4 className="mt-2 text-xl font-semibold tracking-tight">{t('landing.usesTitle')}</h4>
          <ul className="mt-5 grid gap-3">
            {Array.from({ length: USES_PER_SERVICE }, (_, i) => (
              <li key={i} className="flex gap-3 text-sm leading-snug">
                <span
                  aria-hidden="true"
                  className="mt-0.5 inline-flex size-5 shrink-0 items-center justify-center rounded-full bg-white/20 text-[11px] font-semibold"
                >
                  {i + 1}
                </span>
                <span>{t(`landing.services.${service.id}.uses.${i}`)}</span>
              </li>
            ))}
          </ul>
        </div>
      </div>
    </li>
  );
}

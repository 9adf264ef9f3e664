import { useCallback, useEffect, useRef, useState } from 'react';
import { ChevronLeft, ChevronRight } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { Button } from '@/components/ui/button';
import { LANDING_SERVICES } from '../data/services';
import { ServiceCard } from './service-card';

/** Pixels each arrow scrolls (spec: 300). Cards are 280 px + 20 px gap, so a step is one card. */
export const CAROUSEL_STEP_PX = 300;

export function ServicesCarousel() {
  const { t } = useTranslation();
  const trackRef = useRef<HTMLUListElement>(null);
  const ends = useTrackEnds(trackRef);

  function scrollByStep(direction: -1 | 1) {
    trackRef.current?.scrollBy({ left: direction * CAROUSEL_STEP_PX, behavior: 'smooth' });
  }

  return (
    <section aria-labelledby="services-title" className="py-6">
      <div className="mx-auto flex max-w-6xl items-end justify-between gap-4 px-4 sm:px-6">
        <h2 id="services-title" className="text-xl font-semibold tracking-tight text-foreground sm:text-2xl">
          {t('landing.servicesTitle')}
        </h2>
        <div className="flex shrink-0 gap-2">
          <Button
            variant="outline"
            size="icon"
            aria-label={t('landing.previous')}
            data-testid="carousel-prev"
            disabled={ends.atStart}
            onClick={() => scrollByStep(-1)}
          >
            <ChevronLeft aria-hidden="true" />
          </Button>
          <Button
            variant="outline"
            size="icon"
            aria-label={t('landing.next')}
            data-testid="carousel-next"
            disabled={ends.atEnd}
            onClick={() => scrollByStep(1)}
          >
            <ChevronRight aria-hidden="true" />
          </Button>
        </div>
      </div>
      {/* Full-bleed track whose first card lines up with the 72rem content column. */}
      <ul
        ref={trackRef}
        data-testid="carousel-track"
        aria-label={t('landing.carouselLabel')}
        className="scrollbar-none mt-6 flex snap-x snap-mandatory scroll-px-4 gap-5 overflow-x-auto px-4 pt-2 pb-10 sm:scroll-px-[max(1.5rem,calc((100%-72rem)/2+1.5rem))] sm:px-[max(1.5rem,calc((100%-72rem)/2+1.5rem))]"
      >
        {LANDING_SERVICES.map((service, index) => (
          <ServiceCard key={service.id} service={service} index={index} />
        ))}
      </ul>
    </section>
  );
}

/** Pixels of slack when comparing scroll positions (zoom makes them fractional). */
const END_SLACK_PX = 2;

/**
 * Whether the track is scrolled to its start or its end, kept current on scroll and resize,
 * so each arrow is disabled when it would do nothing.
 */
function useTrackEnds(trackRef: React.RefObject<HTMLUListElement | null>) {
  const [ends, setEnds] = useState({ atStart: true, atEnd: false });
  const measure = useCallback(() => {
    const track = trackRef.current;
    if (!track) return;
    const atStart = track.scrollLeft <= END_SLACK_PX;
    const atEnd = track.scrollLeft + track.clientWidth >= track.scrollWidth - END_SLACK_PX;
    setEnds((old) => (old.atStart === atStart && old.atEnd === atEnd ? old : { atStart, atEnd }));
  }, [trackRef]);
  useEffect(() => {
    const track = trackRef.current;
    if (!track) return;
    measure();
    track.addEventListener('scroll', measure, { passive: true });
    const observer = typeof ResizeObserver === 'undefined' ? undefined : new ResizeObserver(measure);
    observer?.observe(track);
    window.addEventListener('resize', measure);
    return () => {
      track.removeEventListener('scroll', measure);
      observer?.disconnect();
      window.removeEventListener('resize', measure);
    };
  }, [measure, trackRef]);
  return ends;
}

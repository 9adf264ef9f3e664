import { Component, lazy, Suspense, useId, useState, type ReactNode } from 'react';
import { loadTooltip } from '@/components/ui/lazy-tooltip';
import { loadAllSpanish } from '@/i18n/i18n';
import { afterFirstPaint } from '@/lib/first-paint';

type OverlaysModule = typeof import('./header-overlays');

let loading: Promise<OverlaysModule> | undefined;

/** Fetches the header's dialogs and side menu (one chunk) once. */
export function preloadHeaderOverlays(): Promise<OverlaysModule> {
  loading ??= import('./header-overlays').catch((error: unknown) => {
    loading = undefined;
    throw error;
  });
  return loading;
}

export const CountryPickerDialog = lazy(() => preloadHeaderOverlays().then((module) => ({ default: module.CountryPickerDialog })));
export const LoginProvidersDialog = lazy(() => preloadHeaderOverlays().then((module) => ({ default: module.LoginProvidersDialog })));
export const SideMenuSheet = lazy(() => preloadHeaderOverlays().then((module) => ({ default: module.SideMenuSheet })));

/**
 * Once the page has painted its first content and the browser is idle, fetches the header's
 * dialogs and tooltips (and the rest of Spanish), so the first press of a header button, or the
 * first move to another page, rarely waits for them, and they never compete with the first
 * paint. Returns a cancel function.
 */
export function preloadHeaderWhenIdle(): () => void {
  let cancelled = false;
  let timer: number | undefined;
  const preload = () => {
    if (cancelled) return;
    void preloadHeaderOverlays().catch(() => undefined);
    void loadTooltip().catch(() => undefined);
    // The rest of Spanish, so a first move to another page does not wait for it.
    void loadAllSpanish().catch(() => undefined);
  };
  void afterFirstPaint().then(() => {
    if (cancelled) return;
    // Without requestIdleCallback (Safari), a second later.
    if (typeof window.requestIdleCallback === 'function') window.requestIdleCallback(preload, { timeout: 2_000 });
    else timer = window.setTimeout(preload, 1_000);
  });
  return () => {
    cancelled = true;
    window.clearTimeout(timer);
  };
}

/**
 * For a header button that opens one of the overlays: what the button needs (the attributes
 * Radix's DialogTrigger gave it, and preloading on hover or focus) and whether to render the
 * overlay (from its first opening on, so it can animate out when closed).
 */
export function useOverlayTrigger(open: boolean) {
  const contentId = useId();
  const [mounted, setMounted] = useState(open);
  if (open && !mounted) setMounted(true);
  const preload = () => void preloadHeaderOverlays().catch(() => undefined);
  return {
    mounted,
    contentId,
    triggerProps: {
      'aria-haspopup': 'dialog' as const,
      'aria-expanded': open,
      'aria-controls': open ? contentId : undefined,
      'data-state': open ? 'open' : 'closed',
      onPointerEnter: preload,
      onFocus: preload,
    },
  };
}

/** Renders a lazily loaded overlay; should its code fail to load (offline), the page stays and the button does nothing. */
export function LazyOverlay({ children }: { children: ReactNode }) {
  return (
    <OverlayBoundary>
      <Suspense fallback={null}>{children}</Suspense>
    </OverlayBoundary>
  );
}

class OverlayBoundary extends Component<{ children: ReactNode }, { failed: boolean }> {
  override state = { failed: false };

  static getDerivedStateFromError(): { failed: boolean } {
    return { failed: true };
  }

  override render() {
    return this.state.failed ? null : this.props.children;
  }
}

let painted: Promise<void> | undefined;

/** Longest wait: a page in a background tab does not paint until shown. */
const FIRST_PAINT_WAIT_MS = 2_000;

/**
 * Resolves once the page has painted its first content, or after two seconds, or at once where
 * the browser cannot tell (no paint timing, as in tests). Code the first paint does not need
 * (the header's dialogs, an answer's schema) waits for it, so it never competes with that paint.
 */
export function afterFirstPaint(): Promise<void> {
  painted ??= new Promise<void>((resolve) => {
    const canTell = typeof PerformanceObserver === 'function' && (PerformanceObserver.supportedEntryTypes ?? []).includes('paint');
    if (!canTell || performance.getEntriesByName('first-contentful-paint').length > 0) {
      resolve();
      return;
    }
    const observer = new PerformanceObserver((entries) => {
      if (entries.getEntriesByName('first-contentful-paint').length > 0) done();
    });
    const timer = window.setTimeout(() => done(), FIRST_PAINT_WAIT_MS);
    function done() {
      observer.disconnect();
      window.clearTimeout(timer);
      resolve();
    }
    observer.observe({ type: 'paint', buffered: true });
  });
  return painted;
}

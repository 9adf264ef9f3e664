import { isFramed } from '@/lib/frame';

/**
 * Sends the browser to the app's redirect URI. Inside the admin panel's Autorizar frame the
 * whole window goes (the app's site will not load inside our frame: our CSP and most sites'
 * own refuse it), as an authorization normally ends. Its own module so tests can record it.
 */
export function leavePageFor(url: string): void {
  if (isFramed()) {
    try {
      window.top!.location.assign(url);
      return;
    } catch {
      // A cross-origin parent: leave only the frame.
    }
  }
  window.location.assign(url);
}

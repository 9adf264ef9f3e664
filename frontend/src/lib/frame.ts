/**
 * True when the page runs inside a frame (the admin panel's Autorizar dialog frames the
 * consent screen). Reading `window.top` across origins can throw: that is a frame too.
 */
export function isFramed(): boolean {
  if (typeof window === 'undefined') return false;
  try {
    return window.self !== window.top;
  } catch {
    return true;
  }
}

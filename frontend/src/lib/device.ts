/**
 * True when the primary input is a touch screen without hover (phones, tablets).
 * We use the media query rather than 'ontouchstart' or navigator.maxTouchPoints because
 * those are also true on touch-screen laptops driven by a mouse, which can hover;
 * it is the same condition under which CSS `hover:` styles do not apply.
 * Evaluated on each call, so rotating to a docked keyboard/mouse is picked up.
 */
export function isTouchDevice(): boolean {
  if (typeof window === 'undefined' || typeof window.matchMedia !== 'function') return false;
  return window.matchMedia('(hover: none) and (pointer: coarse)').matches;
}

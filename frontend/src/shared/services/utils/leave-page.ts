/** Sends the browser to another site (a provider's authorisation page). Its own module so tests can record it. */
export function leavePageFor(url: string): void {
  window.location.assign(url);
}

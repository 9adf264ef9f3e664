/**
 * Sends the browser to the app's redirect URI. Not used inside the admin panel's Autorizar frame:
 * there the consent page shows the outcome and stays (decision 0025). Its own module so tests can
 * record it.
 */
export function leavePageFor(url: string): void {
  window.location.assign(url);
}

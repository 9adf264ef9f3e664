/** Sends the browser (or the frame) to the app's redirect URI. Its own module so tests can record it. */
export function leavePageFor(url: string): void {
  window.location.assign(url);
}

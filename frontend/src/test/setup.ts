import '@testing-library/jest-dom/vitest';
import { cleanup } from '@testing-library/react';
import { afterEach } from 'vitest';
import i18n from '@/i18n/i18n';
import es from '@/i18n/locales/es.json';

// The app bundles only the landing page's Spanish and loads the rest before other pages (the
// root route); components rendered alone in tests get all of it up front.
i18n.addResourceBundle('es', 'translation', es, true, false);

// jsdom does not scroll; the router's scroll restoration calls this on every navigation.
window.scrollTo = () => {};
// A test page never goes idle: what the app preloads when idle (the header's dialogs and hints)
// loads when used, as on a busy page, and not at a random moment of a test.
window.requestIdleCallback = () => 0;
window.cancelIdleCallback = () => {};

afterEach(async () => {
  cleanup();
  window.localStorage.clear();
  await i18n.changeLanguage('es');
});

import '@testing-library/jest-dom/vitest';
import { cleanup } from '@testing-library/react';
import { afterEach } from 'vitest';
import i18n from '@/i18n/i18n';

// jsdom does not scroll; the router's scroll restoration calls this on every navigation.
window.scrollTo = () => {};

afterEach(async () => {
  cleanup();
  window.localStorage.clear();
  await i18n.changeLanguage('es');
});

import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from '@/app/provider';
import { loadAllSpanish } from '@/i18n/i18n';
import { startLanguageSync } from '@/i18n/language';
import './index.css';

const container = document.getElementById('root');
if (!container) throw new Error('Missing #root element in index.html');

// Apply the stored country's language (and <html lang>) before the first paint: Spanish is
// bundled and immediate; another language's messages are fetched first, so the page does
// not flash Spanish. Should that fetch fail, the page renders anyway (in Spanish).
// Any page but the landing needs all of Spanish (the root route waits for it): start it now.
if (window.location.pathname !== '/') void loadAllSpanish().catch(() => undefined);
void startLanguageSync().finally(() => {
  createRoot(container).render(
    <StrictMode>
      <App />
    </StrictMode>,
  );
});

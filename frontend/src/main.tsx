import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from '@/app/provider';
import '@/i18n/i18n';
import { startLanguageSync } from '@/i18n/language';
import './index.css';

// Apply the stored country's language (and <html lang>) before the first paint.
startLanguageSync();

const container = document.getElementById('root');
if (!container) throw new Error('Missing #root element in index.html');

createRoot(container).render(
  <StrictMode>
    <App />
  </StrictMode>,
);

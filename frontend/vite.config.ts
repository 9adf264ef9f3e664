/// <reference types="vitest/config" />
import { fileURLToPath, URL } from 'node:url';
import type { IncomingMessage } from 'node:http';
import tailwindcss from '@tailwindcss/vite';
import { tanstackRouter } from '@tanstack/router-plugin/vite';
import react from '@vitejs/plugin-react';
import { defineConfig, type ProxyOptions } from 'vite';

const backend = process.env.LIFE_BACKEND_URL ?? 'http://127.0.0.1:3000';

/**
 * `/login/{provider}` starts a login on the backend, but `/login/{provider}/callback`
 * opened as a page (Accept: text/html) is an SPA route: serve index.html for it,
 * like the backend does in production. Its JSON fetch (Accept: application/json) still goes to the backend.
 */
function spaCallbackBypass(req: IncomingMessage): string | undefined {
  const isPage = req.headers.accept?.includes('text/html') ?? false;
  return isPage && /^\/login\/[^/]+\/callback(\?|$)/.test(req.url ?? '') ? '/index.html' : undefined;
}

const proxy: Record<string, ProxyOptions> = {
  '/api': { target: backend, changeOrigin: false },
  '/login': { target: backend, changeOrigin: false, bypass: spaCallbackBypass },
};

export default defineConfig({
  plugins: [
    // Must come before the React plugin.
    tanstackRouter({ target: 'react', autoCodeSplitting: true }),
    react(),
    tailwindcss(),
  ],
  resolve: {
    alias: { '@': fileURLToPath(new URL('./src', import.meta.url)) },
  },
  server: { proxy },
  preview: { proxy },
  build: {
    outDir: 'dist',
    sourcemap: false,
    rolldownOptions: {
      output: {
        // Long-lived vendor chunks cache across deploys; app code stays split per route.
        codeSplitting: {
          groups: [
            { name: 'react', test: /node_modules[\\/](react|react-dom|scheduler)[\\/]/, priority: 30 },
            // Only imported on demand by the checkout (sessionId branch): keep it out of the eager vendor chunk.
            { name: 'stripe', test: /node_modules[\\/]@stripe[\\/]/, priority: 40 },
            { name: 'tanstack', test: /node_modules[\\/]@tanstack[\\/]/, priority: 20 },
            { name: 'zod', test: /node_modules[\\/]zod[\\/]/, priority: 20 },
            { name: 'vendor', test: /node_modules[\\/]/, priority: 10 },
          ],
        },
      },
    },
  },
  test: {
    environment: 'jsdom',
    include: ['src/**/*.test.{ts,tsx}'],
    setupFiles: ['./src/test/setup.ts'],
    css: false,
    restoreMocks: true,
  },
});

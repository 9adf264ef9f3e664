/// <reference types="vite/client" />

interface ImportMetaEnv {
  /** Stripe publishable key, baked in at build time; only used when checkout answers a sessionId without a url. */
  readonly VITE_STRIPE_PUBLIC_KEY?: string;
}

/** A locale file as its own module (see loadAllSpanish in i18n/i18n.ts). */
declare module '*.json?all' {
  const messages: Record<string, unknown>;
  export default messages;
}

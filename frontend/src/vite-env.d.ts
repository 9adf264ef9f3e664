/// <reference types="vite/client" />

interface ImportMetaEnv {
  /** Stripe publishable key, baked in at build time; only used when checkout answers a sessionId without a url. */
  readonly VITE_STRIPE_PUBLIC_KEY?: string;
}

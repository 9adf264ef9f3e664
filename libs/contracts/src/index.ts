export * from './common.js';
export * from './health.js';
export * from './site.js';
export * from './session.js';
export * from './auth.js';
export * from './billing.js';
export * from './contact.js';
export * from './services.js';

import helmet, { type HelmetOptions } from 'helmet';

export type HeaderSet = Readonly<Record<string, string>>;

/** The security headers helmet would write with these options, computed once (they never depend on the request). */
export function helmetHeaders(options: HelmetOptions): HeaderSet {
  const headers: Record<string, string> = {};
  const response = {
    setHeader(name: string, value: string | number | readonly string[]) {
      headers[name.toLowerCase()] = Array.isArray(value) ? value.join(', ') : String(value);
    },
    removeHeader(name: string) {
      delete headers[name.toLowerCase()];
    },
  };
  let failure: unknown;
  // helmet's middleware is synchronous for static options; it reports problems through `next`.
  helmet(options)({} as never, response as never, (error?: unknown) => {
    failure = error;
  });
  if (failure) throw failure instanceof Error ? failure : new Error(String(failure));
  return Object.freeze(headers);
}

export interface SecurityHeaders {
  /** Every answer. */
  readonly default: HeaderSet;
  /**
   * The consent page as a browser page: it alone may be framed, and only by ourselves (the admin
   * panel's Autorizar), and it alone shows images from other https origins (an app's logo, decision 0037).
   */
  readonly framedBySelf: HeaderSet;
}

/**
 * Life's security headers (CSP, HSTS on https, referrer policy, frame options…), computed at
 * start instead of on every request as @fastify/helmet does: they depend only on configuration.
 */
export function securityHeaders(appUrl: string, options: { varyOnOrigin?: boolean } = {}): SecurityHeaders {
  const https = appUrl.startsWith('https://');
  const helmetOptions = (frameAncestors: string, imgSrc: string[] = []): HelmetOptions => ({
    contentSecurityPolicy: {
      useDefaults: true,
      directives: {
        'default-src': ["'self'"],
        'script-src': ["'self'"],
        'style-src': ["'self'", "'unsafe-inline'"],
        'img-src': ["'self'", 'data:', ...imgSrc],
        'connect-src': ["'self'"],
        'font-src': ["'self'", 'data:'],
        'object-src': ["'none'"],
        'base-uri': ["'self'"],
        'form-action': ["'self'"],
        'frame-ancestors': [frameAncestors],
        'frame-src': ["'self'"],
        'upgrade-insecure-requests': https ? [] : null,
      },
    },
    strictTransportSecurity: https ? { maxAge: 31536000, includeSubDomains: true } : false,
    referrerPolicy: { policy: 'strict-origin-when-cross-origin' },
    frameguard: { action: frameAncestors === "'none'" ? 'deny' : 'sameorigin' },
  });
  // With CORS origins configured, answers differ by Origin: say so to caches on every answer.
  const vary: HeaderSet = options.varyOnOrigin ? { vary: 'Origin' } : {};
  return {
    default: Object.freeze({ ...helmetHeaders(helmetOptions("'none'")), ...vary }),
    framedBySelf: Object.freeze({ ...helmetHeaders(helmetOptions("'self'", ['https:'])), ...vary }),
  };
}

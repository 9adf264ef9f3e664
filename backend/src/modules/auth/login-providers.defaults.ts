/**
 * Default rows for the four identity providers (facts from shared/design/PROVIDERS.md).
 * Only defaults: admins edit every URL, and tests point the same rows at local stand-ins.
 */
export const LOGIN_PROVIDER_DEFAULTS = [
  {
    serviceName: 'github',
    description: 'Inicia sesión con tu cuenta de GitHub.',
    baseUrl: 'https://github.com',
    authUrl: 'https://github.com/login/oauth/authorize',
    tokenUrl: 'https://github.com/login/oauth/access_token',
    userUrl: 'https://api.github.com/user',
    scopes: 'read:user user:email',
  },
  {
    serviceName: 'google',
    description: 'Inicia sesión con tu cuenta de Google (OpenID Connect).',
    baseUrl: 'https://accounts.google.com',
    authUrl: 'https://accounts.google.com/o/oauth2/v2/auth',
    tokenUrl: 'https://oauth2.googleapis.com/token',
    userUrl: 'https://openidconnect.googleapis.com/v1/userinfo',
    scopes: 'openid email profile',
  },
  {
    serviceName: 'microsoft',
    description: 'Inicia sesión con tu cuenta de Microsoft (OpenID Connect).',
    baseUrl: 'https://login.microsoftonline.com/common/v2.0',
    authUrl: 'https://login.microsoftonline.com/common/oauth2/v2.0/authorize',
    tokenUrl: 'https://login.microsoftonline.com/common/oauth2/v2.0/token',
    userUrl: 'https://graph.microsoft.com/oidc/userinfo',
    scopes: 'openid profile email',
  },
  {
    serviceName: 'apple',
    description: 'Inicia sesión con tu Apple ID. El secreto es JSON: {"team_id","key_id","private_key"}.',
    baseUrl: 'https://appleid.apple.com',
    authUrl: 'https://appleid.apple.com/auth/authorize',
    tokenUrl: 'https://appleid.apple.com/auth/token',
    userUrl: null,
    scopes: 'name email',
  },
] as const;

export type ProviderFamily = 'github' | 'oidc' | 'apple';

/** How a provider signs people in, from its name: the flows know these four. */
export function familyOf(serviceName: string): ProviderFamily | undefined {
  switch (serviceName) {
    case 'github':
      return 'github';
    case 'google':
    case 'microsoft':
      return 'oidc';
    case 'apple':
      return 'apple';
    default:
      return undefined;
  }
}

import type { ExternalServiceDto } from '@life/contracts';

let next = 0;

/** A catalog entry as `GET /api/external-services/all` answers it. */
export function serviceFixture(overrides: Partial<ExternalServiceDto> = {}): ExternalServiceDto {
  next += 1;
  return {
    id: `00000000-0000-4000-8000-${String(next).padStart(12, '0')}`,
    service_name: 'github',
    service_type: 'código',
    description: 'Tus repositorios, contribuciones y proyectos de código en GitHub.',
    connected: false,
    needs_reconnect: false,
    status: 'active',
    scopes: 'read:user user:email',
    app_id: 'Iv1.abc',
    app_secret: '********',
    base_url: 'https://api.github.com',
    auth_url: 'https://github.com/login/oauth/authorize',
    token_url: 'https://github.com/login/oauth/access_token',
    redirect_url: null,
    user_url: 'https://api.github.com/user',
    token_auth: 'body',
    token_body: 'form',
    send_scope: true,
    pkce: false,
    extra_auth_params: {},
    extra_headers: {},
    api_key_header: null,
    api_key: '',
    revoke_url: null,
    revoke_style: 'github',
    account_url: 'https://github.com/settings/applications',
    account_name: null,
    unavailable_reason: null,
    dev_provider: false,
    callback_url: `http://127.0.0.1:3000/callback/${overrides.service_name ?? 'github'}`,
    regions: [],
    region: null,
    ...overrides,
  };
}

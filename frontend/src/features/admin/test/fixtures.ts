import type { OAuthClientView } from '@life/contracts';

let next = 0;

/** An app as `GET /oauth_clients` answers it. */
export function clientFixture(overrides: Partial<OAuthClientView> = {}): OAuthClientView {
  next += 1;
  const redirectUris = overrides.redirect_uris ?? ['https://agenda.example/callback'];
  return {
    id: `00000000-0000-4000-9000-${String(next).padStart(12, '0')}`,
    name: 'Mi Agenda',
    client_id: `life_client_${String(next).padStart(4, '0')}_abcdefghijklmnopqrstuvwxyz`,
    client_type: 'confidential',
    redirect_uri: redirectUris[0] ?? '',
    redirect_uris: redirectUris,
    post_logout_redirect_uris: [],
    allowed_scopes: ['openid', 'profile', 'read'],
    description: 'Agenda compartida para familias.',
    owner_user_id: null,
    active: true,
    has_secret: true,
    require_pushed_authorization_requests: false,
    created_at: '2025-03-15T10:00:00.000Z',
    developer_id: null,
    developer_name: null,
    logo_uri: null,
    policy_uri: null,
    tos_uri: null,
    verified: true,
    suspended: false,
    ...overrides,
  };
}

import type { ConsentInfo } from '@life/contracts';

/** `GET /oauth/authorize` as JSON for a valid request. */
export function consentFixture(overrides: Partial<ConsentInfo> = {}): ConsentInfo {
  return {
    client_id: 'agenda-app',
    client_name: 'Mi Agenda',
    redirect_uri: 'https://agenda.example/callback',
    scope: 'openid profile',
    scopes: [
      { scope: 'openid', description: 'Saber quién eres' },
      { scope: 'profile', description: 'Ver tu nombre de usuario' },
    ],
    state: 'st-1',
    logo_uri: null,
    policy_uri: null,
    tos_uri: null,
    verified: true,
    developer_app: false,
    ...overrides,
  };
}

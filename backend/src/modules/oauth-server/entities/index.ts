// The tables this module owns: only this module's code reads or writes them (docs/architecture.md).
import type { InferClassEntityDB } from '@mikro-orm/sql';
import type { ColumnType } from 'kysely';
import { OAuthClient } from './oauth-client.entity.js';
import { OAuthGrant } from './oauth-grant.entity.js';
import { OAuthCode } from './oauth-code.entity.js';
import { OAuthToken } from './oauth-token.entity.js';
import { OAuthSigningKey } from './signing-key.entity.js';

export const OAUTH_SERVER_ENTITIES = [OAuthClient, OAuthGrant, OAuthCode, OAuthToken, OAuthSigningKey];

type Inferred = InferClassEntityDB<typeof OAuthClient | typeof OAuthGrant | typeof OAuthCode | typeof OAuthToken | typeof OAuthSigningKey>;

/** A jsonb array of strings: read back as an array, written as its JSON text (pg would send a JS array as a Postgres array). */
type JsonStrings = ColumnType<string[], string, string>;

/** These tables for the typed query builder (`em.getKysely<OAuthServerDb>()`), used only inside this module. */
export type OAuthServerDb = {
  oauth_clients: Omit<Inferred['oauth_clients'], 'redirect_uris' | 'allowed_scopes'> & { redirect_uris: JsonStrings; allowed_scopes: JsonStrings };
  oauth_grants: Omit<Inferred['oauth_grants'], 'scopes'> & { scopes: JsonStrings };
  oauth_codes: Omit<Inferred['oauth_codes'], 'scopes'> & { scopes: JsonStrings };
  oauth_tokens: Omit<Inferred['oauth_tokens'], 'scopes'> & { scopes: JsonStrings };
  oauth_signing_keys: Inferred['oauth_signing_keys'] & { public_jwk: Record<string, unknown> };
};

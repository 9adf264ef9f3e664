// The tables this module owns: only this module's code reads or writes them (docs/architecture.md).
import { OAuthClient } from './oauth-client.entity.js';
import { OAuthGrant } from './oauth-grant.entity.js';
import { OAuthCode } from './oauth-code.entity.js';
import { OAuthToken } from './oauth-token.entity.js';
import { OAuthSigningKey } from './signing-key.entity.js';

export const OAUTH_SERVER_ENTITIES = [OAuthClient, OAuthGrant, OAuthCode, OAuthToken, OAuthSigningKey];

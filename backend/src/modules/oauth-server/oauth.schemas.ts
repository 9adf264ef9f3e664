import { CONSENT_ACTIONS } from '@life/contracts';
import { z } from 'zod';

// The protocol endpoints' request and answer shapes: what @Contract checks before a handler runs
// and the OpenAPI document shows. The OAuth rules themselves (RFC 6749 §3.1 parameters, clients,
// grants) are the services'.

const param = z.string().max(4096);

export const AuthorizeQuerySchema = z
  .object({
    client_id: param,
    redirect_uri: param,
    response_type: param,
    scope: param,
    state: param,
    code_challenge: param,
    code_challenge_method: param,
    nonce: param,
    prompt: param,
    request_uri: param,
    dpop_jkt: param,
    max_age: param,
    login_ticket: param,
  })
  .partial()
  .loose();

export const AuthorizeBodySchema = AuthorizeQuerySchema.extend({ action: z.enum(CONSENT_ACTIONS) });

/** OpenID Connect RP-Initiated Logout 1.0 §2 (GET query or POST form). */
export const EndSessionQuerySchema = z
  .object({
    id_token_hint: param,
    logout_hint: param,
    client_id: param,
    post_logout_redirect_uri: param,
    state: param,
    ui_locales: param,
  })
  .partial()
  .loose();

export const TokenBodySchema = z
  .object({
    grant_type: z.string(),
    code: param,
    redirect_uri: param,
    code_verifier: param,
    refresh_token: param,
    scope: param,
    client_id: param,
    client_secret: param,
  })
  .partial()
  .loose();

export const TokenAnswerSchema = z
  .object({
    access_token: z.string(),
    token_type: z.enum(['Bearer', 'DPoP']),
    expires_in: z.number(),
    refresh_token: z.string().optional(),
    scope: z.string().optional(),
    id_token: z.string().optional(),
  })
  .meta({ id: 'TokenAnswer' });

export const ParBodySchema = AuthorizeQuerySchema.omit({ request_uri: true }).extend({ client_secret: param }).partial().loose();

export const ParAnswerSchema = z.object({ request_uri: z.string(), expires_in: z.number() }).meta({ id: 'ParAnswer' });

export const TokenOpBodySchema = z.object({ token: param, token_type_hint: param, client_id: param, client_secret: param }).partial().loose();

export const IntrospectionSchema = z.object({ active: z.boolean() }).loose().meta({ id: 'Introspection' });

export const JsonObjectSchema = z.record(z.string(), z.unknown());

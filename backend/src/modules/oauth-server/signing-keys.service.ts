import { randomUUID } from 'node:crypto';
import { Injectable, Logger } from '@nestjs/common';
import { EntityManager } from '@mikro-orm/postgresql';
import { exportJWK, generateKeyPair, importJWK, SignJWT, type JWK, type JWTPayload } from 'jose';
import { KeyRing } from '../../core/crypto/key-ring.js';
import type { OAuthServerDb } from './entities/index.js';
import { OAuthSigningKey } from './entities/signing-key.entity.js';

const ALG = 'RS256';
/** Keep a retired key in the JWKS this long: longer than any ID token lives. */
const RETIRED_KEY_PUBLISHED_MS = 7 * 24 * 3600 * 1000;
/** How long a process trusts its cached key set before reading the table again (rotation reaches every process). */
const CACHE_MS = 60_000;
const ADVISORY_LOCK = 0x11fe_0a75;

interface ActiveKey {
  kid: string;
  key: Awaited<ReturnType<typeof importJWK>>;
}

/**
 * ID token signing keys (RS256, the algorithm every OIDC client supports). The first web
 * process to need one generates it under an advisory lock; the private JWK is sealed with
 * the key ring. `rotate()` makes a new key active and keeps the old one published.
 */
@Injectable()
export class SigningKeysService {
  private readonly logger = new Logger(SigningKeysService.name);
  private cache?: { at: number; active: ActiveKey; jwks: JWK[] };

  constructor(
    private readonly em: EntityManager,
    private readonly keyRing: KeyRing,
  ) {}

  private aad(kid: string) {
    return `oauth_signing_keys:${kid}:private_jwk`;
  }

  /** Held until the transaction ends: one process at a time makes or rotates the key. */
  private async lock(em: EntityManager): Promise<void> {
    await em
      .getKysely<OAuthServerDb>()
      .selectNoFrom((eb) => eb.fn('pg_advisory_xact_lock', [eb.val(ADVISORY_LOCK)]).as('locked'))
      .execute();
  }

  private async generate(em: EntityManager): Promise<OAuthSigningKey> {
    const { publicKey, privateKey } = await generateKeyPair(ALG, { extractable: true, modulusLength: 2048 });
    const kid = randomUUID();
    const publicJwk = { ...(await exportJWK(publicKey)), kid, alg: ALG, use: 'sig' };
    const privateJwk = { ...(await exportJWK(privateKey)), kid, alg: ALG };
    const row = em.create(OAuthSigningKey, {
      kid,
      alg: ALG,
      publicJwk,
      privateJwkSealed: this.keyRing.encrypt(JSON.stringify(privateJwk), this.aad(kid)),
    });
    this.logger.log(`Generated ID token signing key ${kid}`);
    return row;
  }

  /** Makes sure one active key exists; safe to call from many processes at once. */
  async ensureKey(): Promise<void> {
    await this.em.fork().transactional(async (em) => {
      await this.lock(em);
      const active = await em.count(OAuthSigningKey, { active: true });
      if (active === 0) await this.generate(em);
    });
    this.cache = undefined;
  }

  /** A new active key; the previous one is retired but stays in the JWKS for a week. */
  async rotate(): Promise<string> {
    let kid = '';
    await this.em.fork().transactional(async (em) => {
      await this.lock(em);
      await em.nativeUpdate(OAuthSigningKey, { active: true }, { active: false, retiredAt: new Date() });
      kid = (await this.generate(em)).kid;
    });
    this.cache = undefined;
    return kid;
  }

  private async load() {
    if (this.cache && Date.now() - this.cache.at < CACHE_MS) return this.cache;
    const since = new Date(Date.now() - RETIRED_KEY_PUBLISHED_MS);
    const em = this.em.fork();
    let rows = await em.find(OAuthSigningKey, { $or: [{ active: true }, { retiredAt: { $gt: since } }] }, { orderBy: { createdAt: 'desc' } });
    if (!rows.some((row) => row.active)) {
      await this.ensureKey();
      rows = await em.find(OAuthSigningKey, { $or: [{ active: true }, { retiredAt: { $gt: since } }] }, { orderBy: { createdAt: 'desc' } });
    }
    const activeRow = rows.find((row) => row.active)!;
    const privateJwk = JSON.parse(this.keyRing.decrypt(activeRow.privateJwkSealed, this.aad(activeRow.kid))) as JWK;
    this.cache = {
      at: Date.now(),
      active: { kid: activeRow.kid, key: await importJWK(privateJwk, ALG) },
      jwks: rows.map((row) => row.publicJwk as JWK),
    };
    return this.cache;
  }

  async jwks(): Promise<{ keys: JWK[] }> {
    return { keys: (await this.load()).jwks };
  }

  async sign(payload: JWTPayload, lifetimeSeconds: number): Promise<string> {
    const { active } = await this.load();
    return new SignJWT(payload)
      .setProtectedHeader({ alg: ALG, kid: active.kid, typ: 'JWT' })
      .setIssuedAt()
      .setExpirationTime(`${lifetimeSeconds}s`)
      .sign(active.key);
  }

  readonly algorithm = ALG;
}

import { randomUUID } from 'node:crypto';
import { Inject, Injectable, Logger, Optional, type OnApplicationShutdown } from '@nestjs/common';
import { EntityManager } from '@mikro-orm/postgresql';
import { Redis } from 'ioredis';
import { exportJWK, generateKeyPair, importJWK, SignJWT, type JWK, type JWTPayload } from 'jose';
import { sql } from 'kysely';
import { APP_CONFIG, type AppConfig } from '../../config/config.js';
import { KeyRing } from '../../core/crypto/key-ring.js';
import { REDIS } from '../../core/redis/redis.module.js';
import type { OAuthServerDb } from './entities/index.js';
import { OAuthSigningKey } from './entities/signing-key.entity.js';

const ALG = 'RS256';
/** Keep a retired key in the JWKS this long: longer than any ID token lives. */
const RETIRED_KEY_PUBLISHED_MS = 7 * 24 * 3600 * 1000;
const ADVISORY_LOCK = 0x11fe_0a75;

/**
 * A new key is in the JWKS of every process this long before any process signs with it
 * (publish first, sign later). It must exceed {@link SIGNING_KEYS_MAX_AGE_MS}: a process never
 * answers from a key set older than that, so by the time a key signs, every process has read it.
 */
export const SIGNING_KEY_LEAD_MS = 5_000;
/** How often a process that serves keys reads the table again, in case a pub/sub message was lost. */
export const SIGNING_KEYS_POLL_MS = 500;
/** A key set read longer ago than this is read again before it is used (the bound when Redis and the poll both fail). */
export const SIGNING_KEYS_MAX_AGE_MS = 2_000;

/** The Redis channel on which a rotation is announced (the CLI and the app publish, every web process listens). */
export const signingKeysChannel = (queuePrefix: string) => `${queuePrefix}:oauth-signing-keys:changed`;

/** Tells every running process that the keys changed (used by the CLI, which runs without Nest). False when Redis did not answer. */
export async function announceSigningKeys(redisUrl: string, queuePrefix: string): Promise<boolean> {
  const redis = new Redis(redisUrl, { lazyConnect: true, maxRetriesPerRequest: 1, connectTimeout: 3000, retryStrategy: () => null });
  redis.on('error', () => undefined);
  try {
    await redis.connect();
    await redis.publish(signingKeysChannel(queuePrefix), 'rotated');
    return true;
  } catch {
    return false;
  } finally {
    redis.disconnect();
  }
}

export interface PublishedKey {
  kid: string;
  jwk: JWK;
  /** Database clock, in ms. */
  activatesAt: number;
  sealed: string;
}

export interface KeySet {
  /** Local clock when the read was sent: what the set says was true at least then. */
  readAt: number;
  /** Database clock minus this process's clock, measured by the read, rounded down (activation times are database times). */
  clockOffsetMs: number;
  /** Every published key, the latest activation first. */
  keys: PublishedKey[];
  /** Read before the last change announced to this process: read again before use. */
  outdated: boolean;
}

type SigningKey = Awaited<ReturnType<typeof importJWK>>;

interface NewKey {
  kid: string;
  publicJwk: JWK;
  /** The private JWK, sealed with the key ring. */
  sealed: string;
}

/**
 * ID token signing keys (RS256, the algorithm every OIDC client supports). The first web
 * process to need one generates it under an advisory lock; the private JWK is sealed with
 * the key ring.
 *
 * Every key in the table is published at once; a process signs with the newest key whose
 * activation time (database clock) has passed. `rotate()` inserts the new key
 * {@link SIGNING_KEY_LEAD_MS} ahead of its activation, so every process publishes it before any
 * signs with it (decision 0030). A process that serves keys learns of a rotation by Redis
 * pub/sub at once, reads the table every {@link SIGNING_KEYS_POLL_MS} ms in case a message was
 * lost, and never uses a key set older than {@link SIGNING_KEYS_MAX_AGE_MS}.
 */
@Injectable()
export class SigningKeysService implements OnApplicationShutdown {
  private readonly logger = new Logger(SigningKeysService.name);
  private set?: KeySet;
  /** Bumped by every change this process hears of: a read that started before one is outdated. */
  private generation = 0;
  private reading?: { generation: number; promise: Promise<KeySet> };
  private readonly privateKeys = new Map<string, Promise<SigningKey>>();
  private watching = false;
  private subscriber?: Redis;
  private timer?: NodeJS.Timeout;
  private failing = false;

  constructor(
    private readonly em: EntityManager,
    private readonly keyRing: KeyRing,
    // Absent in the CLI, which announces its rotation itself (announceSigningKeys).
    @Optional() @Inject(REDIS) private readonly redis?: Redis,
    @Optional() @Inject(APP_CONFIG) private readonly config?: AppConfig,
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

  /** A new key pair (slow: made before any lock is taken). */
  private async newKey(): Promise<NewKey> {
    const { publicKey, privateKey } = await generateKeyPair(ALG, { extractable: true, modulusLength: 2048 });
    const kid = randomUUID();
    const publicJwk = { ...(await exportJWK(publicKey)), kid, alg: ALG, use: 'sig' };
    const privateJwk = { ...(await exportJWK(privateKey)), kid, alg: ALG };
    return { kid, publicJwk, sealed: this.keyRing.encrypt(JSON.stringify(privateJwk), this.aad(kid)) };
  }

  private async insert(em: EntityManager, key: NewKey, activatesAt: Date): Promise<void> {
    em.create(OAuthSigningKey, {
      kid: key.kid,
      alg: ALG,
      publicJwk: key.publicJwk as Record<string, unknown>,
      privateJwkSealed: key.sealed,
      activatesAt,
    });
    await em.flush();
  }

  /** The database clock now plus `leadMs` (every activation time is on the database clock, shared by all processes). */
  private async databaseTime(em: EntityManager, leadMs: number): Promise<Date> {
    const row = await em
      .getKysely<OAuthServerDb>()
      .selectNoFrom(sql<number>`(extract(epoch from clock_timestamp()) * 1000 + ${leadMs})::float8`.as('at'))
      .executeTakeFirstOrThrow();
    return new Date(Number(row.at));
  }

  /** Makes sure a current key exists; safe to call from many processes at once. The first key signs at once (none was published before it). */
  async ensureKey(): Promise<void> {
    let key: NewKey | undefined;
    for (;;) {
      const made = await this.em.fork().transactional(async (em) => {
        await this.lock(em);
        if ((await em.count(OAuthSigningKey, { active: true })) > 0) return true;
        if (!key) return false;
        await this.insert(em, key, await this.databaseTime(em, 0));
        this.logger.log(`Generated ID token signing key ${key.kid}`);
        return true;
      });
      if (made) break;
      key = await this.newKey();
    }
    this.generation++;
  }

  /**
   * Makes a new key, published by every process at once and signing from `leadMs` later; the
   * previous key signs until then and stays in the JWKS for a week after.
   */
  async rotate(options: { leadMs?: number } = {}): Promise<{ kid: string; activatesAt: Date }> {
    const key = await this.newKey();
    const activatesAt = await this.em.fork().transactional(async (em) => {
      await this.lock(em);
      const at = await this.databaseTime(em, options.leadMs ?? SIGNING_KEY_LEAD_MS);
      await em.nativeUpdate(OAuthSigningKey, { active: true }, { active: false, retiredAt: at });
      await this.insert(em, key, at);
      return at;
    });
    this.logger.log(`Rotated the ID token signing key: ${key.kid} is published now and signs from ${activatesAt.toISOString()}`);
    await this.announce();
    return { kid: key.kid, activatesAt };
  }

  /** This process reads the keys again now; the others when they hear it on Redis (or at their next poll). */
  private async announce(): Promise<void> {
    this.generation++;
    if (this.redis && this.config) {
      await this.redis.publish(signingKeysChannel(this.config.queuePrefix), 'rotated').catch((error: unknown) => {
        this.logger.warn({ err: error }, 'Could not announce the new signing key: other processes read it at their next poll');
      });
    }
    await this.refresh().catch(() => undefined);
  }

  /** Starts listening for rotations, once, in a process that serves keys (a worker never does). */
  private watch(): void {
    if (this.watching) return;
    this.watching = true;
    this.timer = setInterval(() => void this.refresh().catch(() => undefined), SIGNING_KEYS_POLL_MS);
    this.timer.unref();
    if (!this.redis || !this.config) return;
    const subscriber = this.redis.duplicate({ lazyConnect: true, commandTimeout: undefined });
    subscriber.on('error', () => undefined);
    const changed = () => {
      this.generation++;
      void this.refresh().catch(() => undefined);
    };
    // A (re)connection may have missed messages: read again.
    subscriber.on('ready', changed);
    subscriber.on('message', changed);
    this.subscriber = subscriber;
    subscriber
      .connect()
      .then(() => subscriber.subscribe(signingKeysChannel(this.config!.queuePrefix)))
      .catch((error: unknown) => {
        this.logger.warn({ err: error }, 'No Redis subscription for signing key rotations: the poll alone brings them');
      });
  }

  onApplicationShutdown(): void {
    clearInterval(this.timer);
    this.subscriber?.disconnect();
  }

  /** Reads the keys now (one read shared by concurrent callers, unless a change was announced since it started). */
  refresh(): Promise<KeySet> {
    if (this.reading && this.reading.generation === this.generation) return this.reading.promise;
    const generation = this.generation;
    const promise = this.load().then(
      (loaded) => {
        const set: KeySet = { ...loaded, outdated: generation !== this.generation };
        // A slow read finishing late never replaces a newer one.
        if (!this.set || set.readAt >= this.set.readAt) this.set = set;
        if (this.failing) this.logger.log('Reading the signing keys again');
        this.failing = false;
        return set;
      },
      (error: unknown) => {
        if (!this.failing) this.logger.warn({ err: error }, 'Could not read the signing keys: using the last ones read');
        this.failing = true;
        throw error;
      },
    );
    this.reading = { generation, promise };
    const done = () => {
      if (this.reading?.promise === promise) this.reading = undefined;
    };
    promise.then(done, done);
    return promise;
  }

  private async query() {
    return this.em
      .getKysely<OAuthServerDb>()
      .selectFrom('oauth_signing_keys')
      .select([
        'kid',
        'public_jwk',
        'private_jwk_sealed',
        'active',
        sql<number>`(extract(epoch from activates_at) * 1000)::float8`.as('activates_ms'),
        sql<number>`(extract(epoch from clock_timestamp()) * 1000)::float8`.as('db_now_ms'),
      ])
      .where((eb) =>
        eb.or([
          eb('active', '=', true),
          eb('retired_at', 'is', null),
          eb('retired_at', '>', sql<Date>`now() - make_interval(secs => ${RETIRED_KEY_PUBLISHED_MS / 1000})`),
        ]),
      )
      .orderBy('activates_at', 'desc')
      .orderBy('created_at', 'desc')
      .execute();
  }

  private async load(): Promise<Omit<KeySet, 'outdated'>> {
    let readAt = Date.now();
    let rows = await this.query();
    if (!rows.some((row) => row.active)) {
      await this.ensureKey();
      readAt = Date.now();
      rows = await this.query();
    }
    const dbNow = Number(rows[0]!.db_now_ms);
    // The database read its clock somewhere between sending and receiving: assuming "at receipt"
    // makes this process's idea of the database time a lower bound, so it may start signing with
    // a new key a few milliseconds late, never early.
    const clockOffsetMs = dbNow - Date.now();
    const keys = rows.map((row) => ({
      kid: row.kid,
      jwk: row.public_jwk as JWK,
      activatesAt: Number(row.activates_ms),
      sealed: row.private_jwk_sealed,
    }));
    // Private keys of the current and upcoming keys are ready before a token needs them; others are forgotten.
    const current = keys.findIndex((key) => key.activatesAt <= dbNow);
    for (const key of keys.slice(0, current < 0 ? keys.length : current + 1)) void this.privateKey(key).catch(() => undefined);
    for (const kid of this.privateKeys.keys()) if (!keys.some((key) => key.kid === kid)) this.privateKeys.delete(kid);
    return { readAt, clockOffsetMs, keys };
  }

  private privateKey(key: PublishedKey): Promise<SigningKey> {
    let pending = this.privateKeys.get(key.kid);
    if (!pending) {
      pending = Promise.resolve().then(() => importJWK(JSON.parse(this.keyRing.decrypt(key.sealed, this.aad(key.kid))) as JWK, ALG));
      this.privateKeys.set(key.kid, pending);
      pending.catch(() => this.privateKeys.delete(key.kid));
    }
    return pending;
  }

  /** The key set to answer from: the one in memory while it is fresh, else read now (or the last one read when the database does not answer). */
  private async current(): Promise<KeySet> {
    this.watch();
    const set = this.set;
    if (set && !set.outdated && Date.now() - set.readAt < SIGNING_KEYS_MAX_AGE_MS) return set;
    try {
      return await this.refresh();
    } catch (error) {
      // Every key in it is still published by every process (keys stay a week), so signing with it is safe.
      if (set) return set;
      throw error;
    }
  }

  /** The newest key whose activation time has passed (the oldest one if none has: only after a hand-made change). */
  private signer(set: KeySet): PublishedKey {
    const dbNow = Date.now() + set.clockOffsetMs;
    return set.keys.find((key) => key.activatesAt <= dbNow) ?? set.keys[set.keys.length - 1]!;
  }

  async jwks(): Promise<{ keys: JWK[] }> {
    return { keys: (await this.current()).keys.map((key) => key.jwk) };
  }

  /** The key id new ID tokens are signed with now (diagnostics and tests). */
  async signingKid(): Promise<string> {
    return this.signer(await this.current()).kid;
  }

  async sign(payload: JWTPayload, lifetimeSeconds: number): Promise<string> {
    const key = this.signer(await this.current());
    return new SignJWT(payload)
      .setProtectedHeader({ alg: ALG, kid: key.kid, typ: 'JWT' })
      .setIssuedAt()
      .setExpirationTime(`${lifetimeSeconds}s`)
      .sign(await this.privateKey(key));
  }

  readonly algorithm = ALG;
}

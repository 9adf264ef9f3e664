import { createCipheriv, createDecipheriv, createHmac, createSecretKey, hkdfSync, randomBytes, type KeyObject } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';

export class KeyRingError extends Error {}

interface Key {
  id: string;
  secret: Buffer;
}

const KEY_ID = /^[A-Za-z0-9_-]{1,32}$/;
const FORMAT = 'v1';

/**
 * AES-256-GCM under a ring of keys. The first key encrypts; every key decrypts.
 * A value is stored as `v1.<keyId>.<iv>.<tag>.<ciphertext>` (base64url), so rows
 * can be re-encrypted under a new key while old ones still read.
 */
export class KeyRing {
  /** Each key as a KeyObject made once (making one per call showed in the proxy's profile). */
  private readonly keys = new Map<string, KeyObject>();
  /** keyedHash's derived key per purpose, derived once. */
  private readonly purposeKeys = new Map<string, Buffer>();
  readonly primaryId: string;

  constructor(keys: Key[]) {
    if (keys.length === 0) throw new KeyRingError('ENCRYPTION_KEYS holds no key');
    for (const key of keys) {
      if (!KEY_ID.test(key.id)) throw new KeyRingError(`ENCRYPTION_KEYS: key id "${key.id}" must match ${KEY_ID}`);
      if (key.secret.length !== 32) throw new KeyRingError(`ENCRYPTION_KEYS: key "${key.id}" must be 32 bytes (base64)`);
      if (this.keys.has(key.id)) throw new KeyRingError(`ENCRYPTION_KEYS: key id "${key.id}" appears twice`);
      this.keys.set(key.id, createSecretKey(key.secret));
    }
    this.primaryId = keys[0]!.id;
  }

  /** Parses `id1:base64key,id2:base64key` (first = the key that encrypts). */
  static parse(spec: string): KeyRing {
    const keys = spec
      .split(',')
      .map((part) => part.trim())
      .filter(Boolean)
      .map((part) => {
        const separator = part.indexOf(':');
        if (separator <= 0) throw new KeyRingError('ENCRYPTION_KEYS must look like "keyId:base64Key[,keyId:base64Key]"');
        return { id: part.slice(0, separator), secret: Buffer.from(part.slice(separator + 1), 'base64') };
      });
    return new KeyRing(keys);
  }

  static generateKeySpec(id = `k${Date.now().toString(36)}`): string {
    return `${id}:${randomBytes(32).toString('base64')}`;
  }

  get keyIds(): string[] {
    return [...this.keys.keys()];
  }

  encrypt(plaintext: string, associatedData = ''): string {
    const iv = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', this.keys.get(this.primaryId)!, iv);
    cipher.setAAD(Buffer.from(associatedData));
    const ciphertext = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
    return [FORMAT, this.primaryId, iv.toString('base64url'), cipher.getAuthTag().toString('base64url'), ciphertext.toString('base64url')].join('.');
  }

  decrypt(stored: string, associatedData = ''): string {
    const [format, keyId, iv, tag, ciphertext] = stored.split('.');
    if (format !== FORMAT || !keyId || iv === undefined || tag === undefined || ciphertext === undefined) {
      throw new KeyRingError('Unrecognised encrypted value');
    }
    const key = this.keys.get(keyId);
    if (!key) throw new KeyRingError(`Encrypted with key "${keyId}", which is not in ENCRYPTION_KEYS`);
    const decipher = createDecipheriv('aes-256-gcm', key, Buffer.from(iv, 'base64url'));
    decipher.setAAD(Buffer.from(associatedData));
    decipher.setAuthTag(Buffer.from(tag, 'base64url'));
    return Buffer.concat([decipher.update(Buffer.from(ciphertext, 'base64url')), decipher.final()]).toString('utf8');
  }

  /**
   * A keyed SHA-256 (HMAC) of `value` under a key derived from the primary key for `purpose`:
   * lets a low-entropy value (an IP address) be compared without being stored or guessable.
   * Rotating the primary key changes every such hash.
   */
  keyedHash(purpose: string, value: string): string {
    let key = this.purposeKeys.get(purpose);
    if (!key) {
      key = Buffer.from(hkdfSync('sha256', this.keys.get(this.primaryId)!, '', `life:${purpose}`, 32));
      this.purposeKeys.set(purpose, key);
    }
    return createHmac('sha256', key).update(value).digest('hex');
  }

  /** The key id a stored value was encrypted with (for rotation sweeps). */
  static keyIdOf(stored: string): string | undefined {
    return stored.split('.')[1];
  }
}

/**
 * Production must configure ENCRYPTION_KEYS. In development a key is generated once
 * and kept in `<dataDir>/dev-encryption-keys` so a newcomer's data survives restarts.
 */
export function loadKeyRing(spec: string | undefined, dataDir: string, isProduction: boolean): { ring: KeyRing; generated: boolean } {
  if (spec) return { ring: KeyRing.parse(spec), generated: false };
  if (isProduction) throw new KeyRingError('ENCRYPTION_KEYS must be set in production');
  const file = path.join(dataDir, 'dev-encryption-keys');
  if (existsSync(file)) return { ring: KeyRing.parse(readFileSync(file, 'utf8').trim()), generated: false };
  mkdirSync(dataDir, { recursive: true });
  const generatedSpec = KeyRing.generateKeySpec('dev1');
  writeFileSync(file, generatedSpec + '\n', { mode: 0o600 });
  return { ring: KeyRing.parse(generatedSpec), generated: true };
}

import { Injectable } from '@nestjs/common';
import { KeyRing } from '../../core/crypto/key-ring.js';

type Column = 'access_token' | 'refresh_token' | 'link_key' | 'app_secret' | 'api_key' | 'client_secret';

/**
 * Encrypts secrets of this module with the key ring. The associated data names the table,
 * the row and the column, so a ciphertext copied into another row or column does not decrypt.
 */
@Injectable()
export class TokenVault {
  constructor(private readonly keyRing: KeyRing) {}

  private aad(table: string, id: string, column: Column): string {
    return `${table}:${id}:${column}`;
  }

  seal(table: string, id: string, column: Column, value: string): string {
    return this.keyRing.encrypt(value, this.aad(table, id, column));
  }

  open(table: string, id: string, column: Column, stored: string): string {
    return this.keyRing.decrypt(stored, this.aad(table, id, column));
  }

  /** True when the value is not under the current key (a rotation job re-seals it). */
  isStale(stored: string | null | undefined): boolean {
    return !!stored && KeyRing.keyIdOf(stored) !== this.keyRing.primaryId;
  }
}

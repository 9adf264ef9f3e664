import { Injectable } from '@nestjs/common';
import { EntityManager } from '@mikro-orm/postgresql';
import { SECRET_MASK } from '@life/contracts';
import { CatalogService } from './catalog.service.js';
import { UserCredential } from './entities/user-credential.entity.js';
import { ServicesError, ServicesErrorCode } from './external-services.errors.js';
import { TokenVault } from './token-vault.js';
import { msg } from '../../core/i18n/messages.js';

const TABLE = 'user_service_credentials';

/** A person's own OAuth app for a service (the credentials dialog). The secret is sealed and answered masked. */
@Injectable()
export class CredentialsService {
  constructor(
    private readonly em: EntityManager,
    private readonly catalog: CatalogService,
    private readonly vault: TokenVault,
  ) {}

  async get(userId: string, serviceName: string) {
    const credential = await this.em.findOne(UserCredential, { user: userId, serviceName });
    if (!credential) throw new ServicesError(ServicesErrorCode.NoCredentials, msg('services.noCredentials'));
    return { service_name: serviceName, client_id: credential.clientId, client_secret: SECRET_MASK };
  }

  /** The decrypted pair for the connection flow, or undefined when the person has none. */
  async forFlow(userId: string, serviceName: string): Promise<{ clientId: string; clientSecret: string } | undefined> {
    const credential = await this.em.findOne(UserCredential, { user: userId, serviceName });
    if (!credential || !credential.clientId) return undefined;
    return { clientId: credential.clientId, clientSecret: this.vault.open(TABLE, credential.id, 'client_secret', credential.clientSecretEncrypted) };
  }

  async save(userId: string, input: { service_name: string; client_id: string; client_secret: string }) {
    await this.catalog.byName(input.service_name);
    let credential = await this.em.findOne(UserCredential, { user: userId, serviceName: input.service_name });
    if (!credential) {
      credential = this.em.create(UserCredential, {
        user: userId,
        serviceName: input.service_name,
        clientId: input.client_id,
        clientSecretEncrypted: '',
      });
    }
    credential.clientId = input.client_id;
    if (input.client_secret !== SECRET_MASK || !credential.clientSecretEncrypted) {
      credential.clientSecretEncrypted = this.vault.seal(TABLE, credential.id, 'client_secret', input.client_secret === SECRET_MASK ? '' : input.client_secret);
    }
    await this.em.flush();
    return { service_name: input.service_name, client_id: credential.clientId, client_secret: SECRET_MASK };
  }
}

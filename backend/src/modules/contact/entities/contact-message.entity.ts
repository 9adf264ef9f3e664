import { randomUUID } from 'node:crypto';
import { EntityName, type Opt } from '@mikro-orm/core';
import { Entity, Enum, Index, ManyToOne, PrimaryKey, Property } from '@mikro-orm/decorators/legacy';
import { CONTACT_MESSAGE_STATUSES, CONTACT_SUBJECTS, type ContactMessageStatus, type ContactSubject } from '@life/contracts';
import { User } from '../../users/entities/user.entity.js';

/**
 * A message sent from the contact page. Stored before anything else happens, so a mail
 * server or Redis outage loses nothing; `status` follows its delivery by mail.
 */
@Entity({ tableName: 'contact_messages' })
@Index({ name: 'contact_messages_created_at_index', properties: ['createdAt'] })
@Index({ name: 'contact_messages_status_created_at_index', properties: ['status', 'createdAt'] })
export class ContactMessage {
  /** The table's name for the typed query builder (em.getKysely): types only, never set. */
  declare [EntityName]?: 'contact_messages';

  @PrimaryKey({ type: 'uuid' })
  id: Opt<string> = randomUUID();

  @Property({ type: 'varchar', length: 100 })
  name: string;

  /** Normalised (trimmed, lower-cased) by the contract. */
  @Property({ type: 'varchar', length: 254 })
  email: string;

  @Enum({ items: () => [...CONTACT_SUBJECTS], nativeEnumName: 'contact_subject' })
  subject: ContactSubject;

  @Property({ type: 'text' })
  message: string;

  /** Who was signed in when it was sent; kept null if that account is erased. */
  @ManyToOne(() => User, { nullable: true, deleteRule: 'set null' })
  @Index()
  user?: User | null;

  /** Keyed hash of the sender's IP (KeyRing.keyedHash): lets abuse be correlated, never reveals the address. */
  @Property({ type: 'char', length: 64, nullable: true })
  ipHash?: string | null;

  @Property({ type: 'timestamptz' })
  createdAt: Opt<Date> = new Date();

  @Enum({ items: () => [...CONTACT_MESSAGE_STATUSES], nativeEnumName: 'contact_message_status' })
  status: Opt<ContactMessageStatus> = 'received';

  /** Delivery attempts made so far (failed ones and the successful one). */
  @Property({ type: 'integer' })
  attempts: Opt<number> = 0;

  @Property({ type: 'timestamptz', nullable: true })
  sentAt?: Date | null;

  /** Why the last attempt failed, for admins: the SMTP answer, never credentials. */
  @Property({ type: 'varchar', length: 500, nullable: true })
  lastError?: string | null;

  @Property({ type: 'timestamptz', nullable: true })
  handledAt?: Date | null;

  /** E-mail of the admin who marked it handled. */
  @Property({ type: 'varchar', length: 254, nullable: true })
  handledBy?: string | null;
}

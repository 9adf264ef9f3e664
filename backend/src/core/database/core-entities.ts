import { OutboxMessage } from '../outbox/outbox-message.entity.js';
import { BaseEntity } from './base.entity.js';

/** Core's own tables and bases: the outbox; the app adds every module's entities to these. */
export const CORE_ENTITIES = [BaseEntity, OutboxMessage];

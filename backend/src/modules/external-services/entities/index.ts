// The tables this module owns: only this module's code reads or writes them (docs/architecture.md).
import { ExternalService } from './external-service.entity.js';
import { Connection } from './connection.entity.js';
import { UserCredential } from './user-credential.entity.js';

export const EXTERNAL_SERVICES_ENTITIES = [ExternalService, Connection, UserCredential];
